package plan

// Action is what a plan does to one object.
type Action uint8

const (
	// NoOp leaves the object as it is.
	NoOp Action = iota
	// Create makes a new object.
	Create
	// Read reads a data source during apply (its arguments were unknown at plan time).
	Read
	// Update changes the object in place.
	Update
	// DeleteThenCreate replaces the object, deleting the old one first (the default).
	DeleteThenCreate
	// CreateThenDelete replaces the object, creating the new one first (create_before_destroy).
	CreateThenDelete
	// Delete removes the object.
	Delete
	// Forget drops the object from state and leaves it in place (a removed
	// block, or lifecycle.destroy = false).
	Forget
	// ForgetThenCreate replaces the object of a resource with
	// lifecycle.destroy = false: the old object is dropped from state and
	// left in place, then the new one is created (OpenTofu 1.12).
	ForgetThenCreate
)

// LastAction is the last Action: saved plans name every action up to it.
const LastAction = ForgetThenCreate

// String returns the action as the JSON plan's single-word form.
func (a Action) String() string {
	switch a {
	case NoOp:
		return "no-op"
	case Create:
		return "create"
	case Read:
		return "read"
	case Update:
		return "update"
	case DeleteThenCreate:
		return "delete-then-create"
	case CreateThenDelete:
		return "create-then-delete"
	case Delete:
		return "delete"
	case Forget:
		return "forget"
	case ForgetThenCreate:
		return "forget-then-create"
	}
	return "invalid"
}

// JSONActions returns the action as the JSON plan's `change.actions` array:
// ["create"], ["delete","create"], ["create","delete"], ["no-op"], ….
func (a Action) JSONActions() []string {
	switch a {
	case DeleteThenCreate:
		return []string{"delete", "create"}
	case CreateThenDelete:
		return []string{"create", "delete"}
	case ForgetThenCreate:
		return []string{"forget", "create"}
	}
	return []string{a.String()}
}

// IsReplace reports whether a is one of the two replacement actions.
func (a Action) IsReplace() bool { return a == DeleteThenCreate || a == CreateThenDelete }

// Creates reports whether a makes a new object (create, either replacement,
// or a forget-then-create).
func (a Action) Creates() bool { return a == Create || a.IsReplace() || a == ForgetThenCreate }

// Forgets reports whether a drops an object from state without destroying it.
func (a Action) Forgets() bool { return a == Forget || a == ForgetThenCreate }

// Deletes reports whether a removes an existing object (delete or either replacement).
func (a Action) Deletes() bool { return a == Delete || a.IsReplace() }

// ActionReason says why a plan chose an action where the action alone does not tell.
type ActionReason uint8

const (
	// ReasonNone means the action needs no explanation.
	ReasonNone ActionReason = iota
	// ReplaceBecauseTainted: the object is tainted (a previous create failed).
	ReplaceBecauseTainted
	// ReplaceByRequest: the user asked with -replace.
	ReplaceByRequest
	// ReplaceBecauseCannotUpdate: an argument that cannot change in place changed.
	ReplaceBecauseCannotUpdate
	// ReplaceByTriggers: replace_triggered_by named something that changed.
	ReplaceByTriggers
	// DeleteBecauseNoResourceConfig: the resource block is gone from the configuration.
	DeleteBecauseNoResourceConfig
	// DeleteBecauseWrongRepetition: count/for_each was added or removed.
	DeleteBecauseWrongRepetition
	// DeleteBecauseCountIndex: the index is beyond the count.
	DeleteBecauseCountIndex
	// DeleteBecauseEachKey: the key is no longer in for_each.
	DeleteBecauseEachKey
	// DeleteBecauseNoModule: the module call is gone.
	DeleteBecauseNoModule
	// ReadBecauseCheckNested: a check block's scoped data source, read
	// again during apply to verify the check.
	ReadBecauseCheckNested
	// ReasonReadConfigUnknown: a data source read during apply because its
	// configuration has values known only after apply (ReadCause says
	// more; this reason is the one OpenTofu gives, which prefers it when
	// a dependency's change is pending too).
	ReasonReadConfigUnknown
	// ReasonReadDependencyPending: a data source read during apply because
	// something it depends on has a change pending.
	ReasonReadDependencyPending
	// DeleteBecauseNoMoveTarget: a moved block moved the object to an
	// address the configuration does not declare.
	DeleteBecauseNoMoveTarget
	// DeleteBecauseEnabledFalse: the resource's or its module call's
	// lifecycle.enabled is false.
	DeleteBecauseEnabledFalse
	// ForgotBecauseLifecycleDestroyInState: the object is forgotten because
	// the state records lifecycle.destroy = false, set when it was last
	// planned with a configuration that is gone now.
	ForgotBecauseLifecycleDestroyInState
	// ForgotBecauseLifecycleDestroyInConfig: the object is forgotten because
	// its resource sets lifecycle.destroy = false.
	ForgotBecauseLifecycleDestroyInConfig
)

// LastReason is the last ActionReason: saved plans name every reason up to it.
const LastReason = ForgotBecauseLifecycleDestroyInConfig

// JSON returns the reason as the JSON plan's `action_reason` string ("" for none).
func (r ActionReason) JSON() string {
	switch r {
	case ReplaceBecauseTainted:
		return "replace_because_tainted"
	case ReplaceByRequest:
		return "replace_by_request"
	case ReplaceBecauseCannotUpdate:
		return "replace_because_cannot_update"
	case ReplaceByTriggers:
		return "replace_by_triggers"
	case DeleteBecauseNoResourceConfig:
		return "delete_because_no_resource_config"
	case DeleteBecauseWrongRepetition:
		return "delete_because_wrong_repetition"
	case DeleteBecauseCountIndex:
		return "delete_because_count_index"
	case DeleteBecauseEachKey:
		return "delete_because_each_key"
	case DeleteBecauseNoModule:
		return "delete_because_no_module"
	case ReadBecauseCheckNested:
		return "read_because_check_nested"
	case ReasonReadConfigUnknown:
		return "read_because_config_unknown"
	case ReasonReadDependencyPending:
		return "read_because_dependency_pending"
	case DeleteBecauseNoMoveTarget:
		return "delete_because_no_move_target"
	case DeleteBecauseEnabledFalse:
		return "delete_because_enabled_false"
	case ForgotBecauseLifecycleDestroyInState:
		return "forgot_because_lifecycle_destroy_in_state"
	case ForgotBecauseLifecycleDestroyInConfig:
		return "forgot_because_lifecycle_destroy_in_config"
	}
	return ""
}
