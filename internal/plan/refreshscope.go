package plan

import (
	"fmt"
	"slices"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
)

// RefreshMode says which recorded objects a plan read back from their APIs.
type RefreshMode uint8

const (
	// RefreshAll reads back every recorded object the plan covers
	// (-refresh=true, the default).
	RefreshAll RefreshMode = iota
	// RefreshChanged reads back only the objects that may have changed
	// (-refresh=changed; docs/design.md §10).
	RefreshChanged
	// RefreshNone reads back no object (-refresh=false).
	RefreshNone
)

// String returns the -refresh value of the mode: "true", "changed" or "false".
func (m RefreshMode) String() string {
	switch m {
	case RefreshChanged:
		return "changed"
	case RefreshNone:
		return "false"
	}
	return "true"
}

// ParseRefreshMode parses what String returns.
func ParseRefreshMode(s string) (RefreshMode, error) {
	switch s {
	case "true", "":
		return RefreshAll, nil
	case "changed":
		return RefreshChanged, nil
	case "false":
		return RefreshNone, nil
	}
	return 0, fmt.Errorf("unknown refresh mode %q", s)
}

// RefreshCause says why a plan read a recorded object back.
type RefreshCause uint8

const (
	// RefreshEvery: the plan reads back every object it covers.
	RefreshEvery RefreshCause = iota
	// RefreshTimeUnknown: rig knows no last refresh time for the object
	// (never read by rig, or the state was written by another tool since).
	RefreshTimeUnknown
	// RefreshTooOld: its last refresh is older than the plan's max age.
	RefreshTooOld
	// RefreshTainted: the object is tainted.
	RefreshTainted
	// RefreshDependencyChanged: a resource it depends on has a change or
	// changed outside rig (Refreshed.Dependency).
	RefreshDependencyChanged
	// RefreshWouldChange: planned as recorded, the object would change
	// (its configuration or inputs changed), so it is planned against what
	// its API says it is now.
	RefreshWouldChange
	// RefreshAlways: deposed and orphaned objects are always read back.
	RefreshAlways
)

var refreshCauseNames = [...]string{
	RefreshEvery:             "every_object",
	RefreshTimeUnknown:       "time_unknown",
	RefreshTooOld:            "max_age",
	RefreshTainted:           "tainted",
	RefreshDependencyChanged: "dependency_changed",
	RefreshWouldChange:       "would_change",
	RefreshAlways:            "always",
}

// String returns the cause's name in JSON ("time_unknown", "max_age", …).
func (c RefreshCause) String() string {
	if int(c) < len(refreshCauseNames) {
		return refreshCauseNames[c]
	}
	return fmt.Sprintf("RefreshCause(%d)", c)
}

// ParseRefreshCause parses what String returns.
func ParseRefreshCause(s string) (RefreshCause, error) {
	for c, n := range refreshCauseNames {
		if n == s {
			return RefreshCause(c), nil
		}
	}
	return 0, fmt.Errorf("unknown refresh cause %q", s)
}

// Refreshed is a recorded object a plan read back, and why.
type Refreshed struct {
	Addr  addrs.ObjectAddr
	Cause RefreshCause
	// LastRefreshed is when rig last read it back before this plan; zero
	// when that is unknown.
	LastRefreshed time.Time
	// Dependency is the resource with a change or drift, for
	// RefreshDependencyChanged.
	Dependency addrs.AbsResource
}

// NotRefreshed is an object a -refresh=changed plan planned as recorded.
type NotRefreshed struct {
	Addr addrs.ObjectAddr
	// LastRefreshed is when rig last read it back.
	LastRefreshed time.Time
}

// OldestNotRefreshed returns the earliest last refresh among the objects
// the plan did not refresh; false when it refreshed every one.
func (p *Plan) OldestNotRefreshed() (time.Time, bool) {
	if len(p.NotRefreshed) == 0 {
		return time.Time{}, false
	}
	oldest := p.NotRefreshed[0].LastRefreshed
	for _, n := range p.NotRefreshed[1:] {
		if n.LastRefreshed.Before(oldest) {
			oldest = n.LastRefreshed
		}
	}
	return oldest, true
}

// RefreshOf says how the plan treated the recorded object at addr: read
// back (refreshed non-nil), planned as recorded under -refresh=changed
// (kept non-nil), or neither (both nil: the plan did not list it, or had
// no recorded object there). Both lists must be sorted, as the planner
// leaves them.
func (p *Plan) RefreshOf(addr addrs.ObjectAddr) (refreshed *Refreshed, kept *NotRefreshed) {
	if i, ok := slices.BinarySearchFunc(p.Refreshed, addr, func(r Refreshed, a addrs.ObjectAddr) int { return r.Addr.Compare(a) }); ok {
		return &p.Refreshed[i], nil
	}
	if i, ok := slices.BinarySearchFunc(p.NotRefreshed, addr, func(n NotRefreshed, a addrs.ObjectAddr) int { return n.Addr.Compare(a) }); ok {
		return nil, &p.NotRefreshed[i]
	}
	return nil, nil
}
