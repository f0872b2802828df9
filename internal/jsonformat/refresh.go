package jsonformat

// PlanRefresh is a plan's rig_refresh: how it read recorded objects back
// (-refresh), what it read back and why, and what it planned as recorded.
type PlanRefresh struct {
	// Mode is "true" (every object), "changed" or "false" (none).
	Mode string `json:"mode"`
	// MaxAgeSeconds is, under "changed", how old a last refresh could be
	// for an object to be planned as recorded.
	MaxAgeSeconds int64 `json:"max_age_seconds,omitempty"`
	// Refreshed lists the objects read back, when the plan listed them.
	Refreshed []RefreshedObject `json:"refreshed,omitempty"`
	// NotRefreshed lists the objects planned as recorded.
	NotRefreshed []NotRefreshedObject `json:"not_refreshed,omitempty"`
}

// RefreshedObject is an object a plan read back, and why: cause is
// "every_object", "time_unknown", "max_age", "tainted",
// "dependency_changed" (dependency names the resource), "would_change" or
// "always" (deposed and orphaned objects).
type RefreshedObject struct {
	Address       string `json:"address"`
	Deposed       string `json:"deposed,omitempty"`
	Cause         string `json:"cause"`
	LastRefreshed string `json:"last_refreshed,omitempty"`
	Dependency    string `json:"dependency,omitempty"`
}

// NotRefreshedObject is an object a -refresh=changed plan planned as
// recorded, and when rig last read it back.
type NotRefreshedObject struct {
	Address       string `json:"address"`
	Deposed       string `json:"deposed,omitempty"`
	LastRefreshed string `json:"last_refreshed"`
}
