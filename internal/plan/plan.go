package plan

import (
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// Mode says what kind of plan the user asked for.
type Mode uint8

const (
	// NormalMode plans to make the infrastructure match the configuration.
	NormalMode Mode = iota
	// DestroyMode plans to delete every object (rig destroy, plan -destroy).
	DestroyMode
	// RefreshOnlyMode only updates state to match remote objects.
	RefreshOnlyMode
)

// Plan is the result of planning: what each object will undergo and why.
// A Plan is a value: it owns its maps and slices and persists nothing.
type Plan struct {
	Mode Mode
	// Changes holds one entry per object with a planned action, no-ops included,
	// sorted by address then deposed key.
	Changes []*ResourceInstanceChange
	// Drift holds, for each object refreshing found changed outside rig,
	// the difference from the previous run's state to the refreshed one
	// (Update, or Delete when the object is gone), sorted like Changes.
	Drift []*ResourceInstanceChange
	// Refresh says which recorded objects the plan read back, and
	// RefreshMaxAge, under RefreshChanged, how old a last refresh could be
	// for an object to be planned as recorded.
	Refresh       RefreshMode
	RefreshMaxAge time.Duration
	// Refreshed lists the recorded objects read back from their APIs, and
	// NotRefreshed those a -refresh=changed plan planned as recorded, both
	// sorted by address; filled only when the planner's RefreshScope was set.
	Refreshed    []Refreshed
	NotRefreshed []NotRefreshed
	// Outputs holds the planned change of each root output, by name.
	Outputs map[string]*OutputChange
	// PrevRunState is the state as read before refreshing.
	PrevRunState *state.State
	// PriorState is the refreshed state the changes are relative to.
	PriorState *state.State
	// Variables are the root input variable values used.
	Variables map[string]cty.Value
	// EphemeralVariables names the root variables declared ephemeral,
	// sorted: a saved plan leaves their values out, and they are given
	// again when it is applied.
	EphemeralVariables []string
	// Timestamp is when planning began (plantimestamp()).
	Timestamp time.Time
	// Targets and Excludes are the -target and -exclude addresses the plan
	// was made with (at most one of them non-empty).
	Targets, Excludes []addrs.Target
	// RelevantAttributes are the resource attributes the planned changes
	// refer to, directly or not: drift in them may explain the plan. Nil
	// for a destroy plan.
	RelevantAttributes []ResourceAttr
	// Checks are the results of the configuration's conditions as far as
	// planning could evaluate them; nil for a destroy plan.
	Checks *checks.State
	// ActionInvocations are the actions the plan runs (Terraform 1.14),
	// sorted by CompareActionInvocations; nil when it runs none.
	ActionInvocations []*ActionInvocation
	// Errored is true when planning stopped with errors; the plan is partial and cannot be applied.
	Errored bool
	// Evaluated says planning got as far as evaluating the configuration's
	// objects: an errored plan that did is shown and saved (as OpenTofu
	// shows and saves it, "Planning failed." when it planned nothing), one
	// that stopped before (a variable, a cycle) is not.
	Evaluated bool
}

// ResourceInstanceChange is the planned change of one object.
type ResourceInstanceChange struct {
	Addr addrs.AbsResourceInstance
	// PrevRunAddr is where the object was before a moved block (or a move
	// implied by adding or removing count) moved it; zero when it did not move.
	PrevRunAddr addrs.AbsResourceInstance
	// Importing is set when an import block brings the object under
	// management with this plan.
	Importing *Importing
	// Deposed is set when the change concerns a deposed object (always a Delete).
	Deposed        addrs.DeposedKey
	ProviderConfig addrs.AbsProviderConfig
	Action         Action
	Reason         ActionReason
	// Before is the prior object (null for a create); After the planned object
	// (null for a delete), with unknown values where only apply will tell.
	// A delete's Before may be kept encoded (StoreBefore): read it with
	// BeforeValue.
	Before, After cty.Value
	// before, when set, holds Before encoded (see StoreBefore).
	before *storedBefore
	// RequiredReplace lists the attribute paths whose change forces replacement.
	RequiredReplace []cty.Path
	// PriorPrivate and PlannedPrivate are the provider's opaque data.
	PriorPrivate, PlannedPrivate []byte
	// ConfigDigest is the digest (ConfigDigest) of the configuration
	// After was planned from, recorded only when After has no unknown
	// values and the provider's configuration had none: apply then uses
	// After and PlannedPrivate as its final plan when the configuration
	// evaluates to the same value. Nil otherwise.
	ConfigDigest []byte
	// CreateBeforeDestroy is the effective setting, own or inherited; it
	// decides the replacement order and is recorded in state.
	CreateBeforeDestroy bool
	// SkipDestroy is the resource's lifecycle.destroy = false, recorded in
	// state with the object (skip_destroy, as OpenTofu records it) so that
	// the object is forgotten, not destroyed, once its configuration is gone.
	SkipDestroy bool
	// PreventDestroy is where the resource's lifecycle.prevent_destroy was
	// set when it is true and rig.hcl asks for the record
	// (record_prevent_destroy); recorded in state with the object, so that
	// a later plan refuses to destroy it even once its configuration is
	// gone. "" otherwise.
	PreventDestroy string
	// RefusedBy, on a Delete, is where the prevent_destroy the state
	// records for the object was set: the plan refuses the deletion, which
	// is shown marked. "" for every other change.
	RefusedBy string
	// Gate is the health gate of a create_before_destroy replacement of a
	// resource rig.hcl names in a health_gate block, with its batch; nil
	// otherwise.
	Gate *HealthGate
	// CBDInheritedFrom names the resource whose create_before_destroy this
	// object inherited; zero when its own setting (or none) applies.
	CBDInheritedFrom addrs.AbsResource
	// CBDVia is, for an inherited create_before_destroy, the resource that
	// depends on this one and passed the setting on: the next step of the
	// dependency path towards CBDInheritedFrom (see ReasonIndex.CBDPath).
	CBDVia addrs.AbsResource
	// Trigger is the replace_triggered_by entry that forced the replacement
	// when Reason is ReplaceByTriggers; nil otherwise.
	Trigger *Trigger
	// ReadCause says why a data source is read during apply (a Read change).
	ReadCause ReadCause
	// ReadAfter is the instance with a pending change that the read waits
	// for, when ReadCause is ReadBecauseDependencyPending.
	ReadAfter addrs.AbsResourceInstance
	// Dependencies are the resources this object depends on: from the
	// configuration for a create or update, from state for a delete.
	Dependencies []addrs.AbsResource
	// SchemaVersion is the schema version of the resource type, recorded in state.
	SchemaVersion uint64
	// BeforeIdentity and AfterIdentity are the prior object's resource
	// identity and the planned one (unknown in parts until a create is
	// applied); cty.NilVal when the resource type declares no identity.
	BeforeIdentity, AfterIdentity cty.Value
}

// ObjectAddr returns the address of the object the change concerns.
func (c *ResourceInstanceChange) ObjectAddr() addrs.ObjectAddr {
	return addrs.ObjectAddr{Instance: c.Addr, Deposed: c.Deposed}
}

// OutputChange is the planned change of a root output value.
type OutputChange struct {
	Action        Action
	Before, After cty.Value
	Sensitive     bool
}

// Moved reports whether the change's object moved to its address.
func (c *ResourceInstanceChange) Moved() bool {
	return c.PrevRunAddr != (addrs.AbsResourceInstance{}) && c.PrevRunAddr != c.Addr
}

// HasChanges reports whether applying the plan would change anything:
// an action other than no-op on an object or an output, an object that
// moved (its new address must be recorded), an action to invoke, or in a
// refresh-only plan an object changed outside rig.
func (p *Plan) HasChanges() bool {
	if len(p.ActionInvocations) > 0 {
		return true
	}
	if p.Mode == RefreshOnlyMode && len(p.Drift) > 0 {
		// Applying records the refreshed objects.
		return true
	}
	for _, c := range p.Changes {
		if c.Action != NoOp || c.Moved() || c.Importing != nil {
			return true
		}
	}
	for _, o := range p.Outputs {
		if o.Action != NoOp {
			return true
		}
	}
	return false
}

// Change returns the change for the object at addr, or nil.
func (p *Plan) Change(addr addrs.ObjectAddr) *ResourceInstanceChange {
	for _, c := range p.Changes {
		if c.Addr == addr.Instance && c.Deposed == addr.Deposed {
			return c
		}
	}
	return nil
}

// Importing says that a change brings an existing remote object under
// management: the object is imported during planning and recorded by
// the apply.
type Importing struct {
	// ID is the import ID the provider was given; "" when Identity named
	// the object.
	ID string
	// Identity is the resource identity an import block named the object
	// by (its identity argument); cty.NilVal when ID did.
	Identity cty.Value
	// GeneratedConfig is the resource block -generate-config-out wrote for
	// the object, without its trailing newline; "" when none was generated.
	GeneratedConfig string
}

// ResourceAttr is an attribute of a resource instance that contributes to
// a planned change: a change made outside rig to it may be why the plan
// does what it does. Path is empty when the whole object is referred to.
type ResourceAttr struct {
	Resource addrs.AbsResourceInstance
	Path     cty.Path
}
