package plan

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
)

// Trigger is the replace_triggered_by entry that forced a replacement.
type Trigger struct {
	// Changed is the referenced instance whose planned update or
	// replacement (or the change of the attribute at Path) fired the entry.
	Changed addrs.AbsResourceInstance
	// Path is the attribute path the entry names after the resource; nil
	// when it names the whole resource or instance.
	Path cty.Path
	// Range is where the entry is written.
	Range hcl.Range
}

// Ref returns the entry as it refers to the changed instance:
// "terraform_data.a[0].output".
func (t *Trigger) Ref() string {
	s := t.Changed.String()
	if p := diag.FormatPath(t.Path); p != "" {
		if strings.HasPrefix(p, "[") {
			return s + p
		}
		return s + "." + p
	}
	return s
}

// ReadCause says why a data source is read during apply rather than while planning.
type ReadCause uint8

const (
	// ReadNow: the data source was read while planning (no Read change),
	// or the cause is not recorded (a plan saved by an earlier version).
	ReadNow ReadCause = iota
	// ReadBecauseConfigUnknown: its configuration has values known only after apply.
	ReadBecauseConfigUnknown
	// ReadBecauseDependencyPending: it depends on a managed resource with a
	// pending change, so it reads after that change.
	ReadBecauseDependencyPending
)

// String returns the cause as saved plans record it.
func (c ReadCause) String() string {
	switch c {
	case ReadBecauseConfigUnknown:
		return "config_unknown"
	case ReadBecauseDependencyPending:
		return "dependency_pending"
	}
	return ""
}

// ParseReadCause is the inverse of ReadCause.String; "" and unknown names give ReadNow.
func ParseReadCause(s string) ReadCause {
	switch s {
	case "config_unknown":
		return ReadBecauseConfigUnknown
	case "dependency_pending":
		return ReadBecauseDependencyPending
	}
	return ReadNow
}

// ReasonKind is one kind of reason a change does what it does.
type ReasonKind uint8

const (
	// BecauseNew: there is no object in state (a create).
	BecauseNew ReasonKind = iota + 1
	// BecauseConfigChanged: the configuration differs from the object; Attrs
	// names the top-level attributes that change.
	BecauseConfigChanged
	// BecauseRequiresReplace: attributes that cannot change in place change (Attrs).
	BecauseRequiresReplace
	// BecauseTriggered: a replace_triggered_by entry (Trigger) fired.
	BecauseTriggered
	// BecauseReplaceRequested: -replace named the instance.
	BecauseReplaceRequested
	// BecauseTainted: the object is tainted.
	BecauseTainted
	// BecauseNoConfig: the resource block is gone from the configuration.
	BecauseNoConfig
	// BecauseCountIndex: the index is beyond the count.
	BecauseCountIndex
	// BecauseEachKey: the key is no longer in for_each.
	BecauseEachKey
	// BecauseWrongRepetition: count or for_each was added or removed.
	BecauseWrongRepetition
	// BecauseNoModule: the module call is gone.
	BecauseNoModule
	// BecauseDestroyMode: the plan destroys everything (-destroy, rig destroy).
	BecauseDestroyMode
	// BecauseDeposed: the object was left deposed by an earlier run.
	BecauseDeposed
	// BecauseForgotten: a removed block with destroy = false drops it from state.
	BecauseForgotten
	// BecauseMoved: the object moved here from Instance.
	BecauseMoved
	// BecauseImport: an import block brings the object (ID) under management.
	BecauseImport
	// BecauseReadDependencyPending: the data source reads after the pending
	// change of Instance.
	BecauseReadDependencyPending
	// BecauseReadConfigUnknown: the data source's configuration is known only after apply.
	BecauseReadConfigUnknown
	// BecauseReadCheck: a check block's data source, read again during apply.
	BecauseReadCheck
	// BecauseCBD: the resource sets create_before_destroy.
	BecauseCBD
	// BecauseCBDInherited: create_before_destroy is inherited from Resource
	// along Path.
	BecauseCBDInherited
	// BecauseEnabledFalse: the resource's lifecycle.enabled is false.
	BecauseEnabledFalse
	// BecauseDestroyFalse: the resource sets lifecycle.destroy = false, so
	// its object is forgotten rather than destroyed.
	BecauseDestroyFalse
	// BecauseDestroyFalseInState: the state records lifecycle.destroy =
	// false for the object, whose resource block is gone.
	BecauseDestroyFalseInState
	// BecauseProtected: the deletion is refused, for the state records the
	// lifecycle.prevent_destroy set At when the object was last applied.
	BecauseProtected
)

// String returns the kind as the JSON plan's rig_reasons entries name it.
func (k ReasonKind) String() string {
	switch k {
	case BecauseNew:
		return "new"
	case BecauseConfigChanged:
		return "config_changed"
	case BecauseRequiresReplace:
		return "requires_replace"
	case BecauseTriggered:
		return "replace_triggered_by"
	case BecauseReplaceRequested:
		return "replace_requested"
	case BecauseTainted:
		return "tainted"
	case BecauseNoConfig:
		return "no_resource_config"
	case BecauseCountIndex:
		return "count_index"
	case BecauseEachKey:
		return "each_key"
	case BecauseWrongRepetition:
		return "wrong_repetition"
	case BecauseNoModule:
		return "no_module"
	case BecauseDestroyMode:
		return "destroy_requested"
	case BecauseDeposed:
		return "deposed"
	case BecauseForgotten:
		return "forgotten"
	case BecauseMoved:
		return "moved"
	case BecauseImport:
		return "import"
	case BecauseReadDependencyPending:
		return "read_dependency_pending"
	case BecauseReadConfigUnknown:
		return "read_config_unknown"
	case BecauseReadCheck:
		return "read_check"
	case BecauseCBD:
		return "create_before_destroy"
	case BecauseCBDInherited:
		return "create_before_destroy_inherited"
	case BecauseEnabledFalse:
		return "enabled_false"
	case BecauseDestroyFalse:
		return "destroy_false"
	case BecauseDestroyFalseInState:
		return "destroy_false_in_state"
	case BecauseProtected:
		return "protected"
	}
	return "invalid"
}

// Reason is one reason a change does what it does. Which fields are set
// depends on Kind (see the kinds' comments).
type Reason struct {
	Kind ReasonKind
	// Attrs are attribute paths (BecauseConfigChanged, BecauseRequiresReplace).
	Attrs []cty.Path
	// Instance is the object's previous address (BecauseMoved) or the
	// instance whose pending change a read waits for (BecauseReadDependencyPending).
	Instance addrs.AbsResourceInstance
	// Trigger is the replace_triggered_by entry (BecauseTriggered).
	Trigger *Trigger
	// ID is the import ID (BecauseImport); for an import by resource
	// identity, the identity as JSON, starting with "{".
	ID string
	// At is where the recorded prevent_destroy was set (BecauseProtected).
	At string
	// Resource is the resource that sets create_before_destroy (BecauseCBDInherited).
	Resource addrs.AbsResource
	// Path is the dependency path from Resource to the object's resource,
	// each depending on the next (BecauseCBDInherited); it may stop short
	// when a resource on the way has no planned instance.
	Path []addrs.AbsResource
}

// String returns the reason as a sentence fragment users read after "because".
func (r Reason) String() string {
	switch r.Kind {
	case BecauseNew:
		return "there is no object in state"
	case BecauseConfigChanged:
		if len(r.Attrs) == 0 {
			return "the configuration changed"
		}
		return "the configuration changed: " + joinPaths(r.Attrs)
	case BecauseRequiresReplace:
		return "changing " + joinPaths(r.Attrs) + " requires replacement"
	case BecauseTriggered:
		if r.Trigger == nil {
			return "a replace_triggered_by entry fired"
		}
		return "replace_triggered_by: " + r.Trigger.Ref() + " changes"
	case BecauseReplaceRequested:
		return "-replace requested it"
	case BecauseTainted:
		return "the object is tainted"
	case BecauseNoConfig:
		return "the resource is no longer in the configuration"
	case BecauseCountIndex:
		return "its index is beyond the count"
	case BecauseEachKey:
		return "its key is no longer in for_each"
	case BecauseWrongRepetition:
		return "count or for_each was added or removed"
	case BecauseNoModule:
		return "its module is no longer in the configuration"
	case BecauseDestroyMode:
		return "the plan destroys everything"
	case BecauseDeposed:
		return "it is a deposed object left by an earlier run"
	case BecauseForgotten:
		return "a removed block says destroy = false"
	case BecauseMoved:
		return "it moved from " + r.Instance.String()
	case BecauseImport:
		if strings.HasPrefix(r.ID, "{") {
			return "an import block imports it (identity " + r.ID + ")"
		}
		return "an import block imports it (id " + r.ID + ")"
	case BecauseReadDependencyPending:
		return "it depends on " + r.Instance.String() + ", which has changes pending"
	case BecauseReadConfigUnknown:
		return "its configuration has values known only after apply"
	case BecauseReadCheck:
		return "a check block reads it again during apply"
	case BecauseCBD:
		return "its lifecycle sets create_before_destroy"
	case BecauseCBDInherited:
		return "create_before_destroy is inherited from " + r.Resource.String() + " (" + JoinResources(r.Path) + ")"
	case BecauseEnabledFalse:
		return "its lifecycle.enabled is false"
	case BecauseDestroyFalse:
		return "its lifecycle sets destroy = false, so the old object is forgotten rather than destroyed"
	case BecauseDestroyFalseInState:
		return "the state records lifecycle.destroy = false, set before its resource block was removed"
	case BecauseProtected:
		return "its deletion is refused: the state records the lifecycle.prevent_destroy set at " + r.At + " (lift it with a removed block with destroy = false, or rig state unprotect)"
	}
	return "unknown"
}

// JoinResources writes a dependency path "a → b → c", each depending on the next.
func JoinResources(path []addrs.AbsResource) string {
	parts := make([]string, len(path))
	for i, r := range path {
		parts[i] = r.String()
	}
	return strings.Join(parts, " → ")
}

func joinPaths(paths []cty.Path) string {
	parts := make([]string, len(paths))
	for i, p := range paths {
		parts[i] = diag.FormatPath(p)
	}
	return strings.Join(parts, ", ")
}

// ReasonIndex answers why each change of one plan does what it does. It
// derives the reasons from what the plan records, so every view (plan
// JSON, rig explain, the graph) tells the same story. It reads the plan
// and never changes it; it is safe for concurrent use once made.
type ReasonIndex struct {
	plan *Plan
	// via maps each resource with an inherited create_before_destroy to the
	// next resource on its path to the source.
	via map[addrs.AbsResource]addrs.AbsResource
}

// NewReasonIndex indexes p's changes, in O(changes).
func NewReasonIndex(p *Plan) *ReasonIndex {
	x := &ReasonIndex{plan: p, via: map[addrs.AbsResource]addrs.AbsResource{}}
	for _, c := range p.Changes {
		if c.CBDInheritedFrom != (addrs.AbsResource{}) && c.CBDVia != (addrs.AbsResource{}) {
			x.via[c.Addr.ContainingResource().Unkeyed()] = c.CBDVia
		}
	}
	return x
}

// CBDPath returns the dependency path along which c inherits
// create_before_destroy: the source first, c's resource last, each
// depending on the next. It is nil when c's setting is its own or absent.
// A path whose middle is not recorded is cut short to [source, c's resource].
func (x *ReasonIndex) CBDPath(c *ResourceInstanceChange) []addrs.AbsResource {
	if c.CBDInheritedFrom == (addrs.AbsResource{}) {
		return nil
	}
	own := c.Addr.ContainingResource().Unkeyed()
	short := []addrs.AbsResource{c.CBDInheritedFrom, own}
	path := []addrs.AbsResource{own}
	seen := map[addrs.AbsResource]bool{own: true}
	for cur, next := own, c.CBDVia; cur != c.CBDInheritedFrom; next = x.via[cur] {
		if next == (addrs.AbsResource{}) || seen[next] {
			return short
		}
		seen[next] = true
		path = append(path, next)
		cur = next
	}
	slices.Reverse(path)
	return path
}

// Reasons returns why c does what it does, most telling first: the cause of
// its action, then how its object arrived (moved, imported), then its
// create_before_destroy. A no-op has none but those of its arrival.
func (x *ReasonIndex) Reasons(c *ResourceInstanceChange) []Reason {
	var out []Reason
	add := func(r Reason) { out = append(out, r) }
	switch c.Action {
	case Create:
		add(Reason{Kind: BecauseNew})
	case Update:
		add(Reason{Kind: BecauseConfigChanged, Attrs: ChangedAttrs(c.Before, c.After)})
	case Read:
		switch {
		case c.Reason == ReadBecauseCheckNested:
			add(Reason{Kind: BecauseReadCheck})
		case c.ReadCause == ReadBecauseDependencyPending:
			add(Reason{Kind: BecauseReadDependencyPending, Instance: c.ReadAfter})
		case c.ReadCause == ReadBecauseConfigUnknown:
			add(Reason{Kind: BecauseReadConfigUnknown})
		}
	case Forget:
		switch c.Reason {
		case ForgotBecauseLifecycleDestroyInConfig:
			add(Reason{Kind: BecauseDestroyFalse})
		case ForgotBecauseLifecycleDestroyInState:
			add(Reason{Kind: BecauseDestroyFalseInState})
		default:
			add(Reason{Kind: BecauseForgotten})
		}
	case DeleteThenCreate, CreateThenDelete, Delete, ForgetThenCreate:
		switch c.Reason {
		case ReplaceByTriggers:
			if c.Trigger != nil {
				add(Reason{Kind: BecauseTriggered, Trigger: c.Trigger})
			}
		case ReplaceBecauseTainted:
			add(Reason{Kind: BecauseTainted})
		case ReplaceByRequest:
			add(Reason{Kind: BecauseReplaceRequested})
		default:
			addOrphanReason(add, c.Reason)
		}
		if len(c.RequiredReplace) > 0 {
			add(Reason{Kind: BecauseRequiresReplace, Attrs: c.RequiredReplace})
		}
		if c.Action == ForgetThenCreate {
			add(Reason{Kind: BecauseDestroyFalse})
		}
		if c.Action == Delete {
			switch {
			case c.Deposed != addrs.NotDeposed:
				add(Reason{Kind: BecauseDeposed})
			case x.plan.Mode == DestroyMode:
				add(Reason{Kind: BecauseDestroyMode})
			case c.Reason == ReasonNone:
				add(Reason{Kind: BecauseNoConfig})
			}
		}
	}
	if c.RefusedBy != "" {
		add(Reason{Kind: BecauseProtected, At: c.RefusedBy})
	}
	if c.Moved() {
		add(Reason{Kind: BecauseMoved, Instance: c.PrevRunAddr})
	}
	if c.Importing != nil {
		add(Reason{Kind: BecauseImport, ID: c.Importing.named()})
	}
	if c.CreateBeforeDestroy && c.Deposed == addrs.NotDeposed && c.Addr.Resource.Resource.Mode == addrs.Managed {
		if c.CBDInheritedFrom != (addrs.AbsResource{}) {
			add(Reason{Kind: BecauseCBDInherited, Resource: c.CBDInheritedFrom, Path: x.CBDPath(c)})
		} else {
			add(Reason{Kind: BecauseCBD})
		}
	}
	return out
}

// addOrphanReason adds the reason an object is no longer configured, if r
// is one.
func addOrphanReason(add func(Reason), r ActionReason) {
	switch r {
	case DeleteBecauseNoResourceConfig, DeleteBecauseNoMoveTarget:
		add(Reason{Kind: BecauseNoConfig})
	case DeleteBecauseWrongRepetition:
		add(Reason{Kind: BecauseWrongRepetition})
	case DeleteBecauseCountIndex:
		add(Reason{Kind: BecauseCountIndex})
	case DeleteBecauseEachKey:
		add(Reason{Kind: BecauseEachKey})
	case DeleteBecauseNoModule:
		add(Reason{Kind: BecauseNoModule})
	case DeleteBecauseEnabledFalse:
		add(Reason{Kind: BecauseEnabledFalse})
	}
}

// ChangedAttrs returns the top-level attributes whose values differ
// between two objects (an unknown planned value counts as a change), in
// name order; nil unless both are known, non-null objects.
func ChangedAttrs(before, after cty.Value) []cty.Path {
	if before.IsNull() || after.IsNull() || !before.IsKnown() || !after.IsKnown() {
		return nil
	}
	bt, at := before.Type(), after.Type()
	if !bt.IsObjectType() || !at.IsObjectType() {
		return nil
	}
	var out []cty.Path
	names := make([]string, 0, len(at.AttributeTypes()))
	for name := range at.AttributeTypes() {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !bt.HasAttribute(name) {
			out = append(out, cty.GetAttrPath(name))
			continue
		}
		b, a := before.GetAttr(name), after.GetAttr(name)
		b, _ = b.UnmarkDeep()
		a, _ = a.UnmarkDeep()
		if !a.IsWhollyKnown() || !b.RawEquals(a) {
			out = append(out, cty.GetAttrPath(name))
		}
	}
	return out
}
