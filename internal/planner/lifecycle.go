package planner

import (
	"fmt"
	"slices"

	"github.com/rig-iac/rig/internal/plan"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// replaceTriggered reports whether any replace_triggered_by entry of r names
// something planned to change: a resource or instance planned to be
// created, updated or replaced, or an attribute whose value changes. It returns the first
// entry that does, with the instance whose change fired it.
func (p *planner) replaceTriggered(r *config.Resource, scope *lang.Scope, addr addrs.AbsResourceInstance) (*plan.Trigger, diag.Diagnostics) {
	if r.Managed == nil {
		return nil, nil
	}
	var ds diag.Diagnostics
	for _, expr := range r.Managed.ReplaceTriggeredBy {
		target, key, keyGiven, attrPath, more := triggerTarget(expr, scope)
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		fired := func(changed addrs.AbsResourceInstance) *plan.Trigger {
			return &plan.Trigger{Changed: changed, Path: attrPath, Range: expr.Range()}
		}
		if keyGiven {
			inst := target.Instance(key).Absolute(addr.Module)
			if p.instanceTriggers(inst, attrPath) {
				return fired(inst), ds
			}
			continue
		}
		// The whole resource: any of its instances.
		p.mu.Lock()
		var candidates []*plan.ResourceInstanceChange
		for a, c := range p.byAddr {
			if a.Resource.Resource == target && a.Module == addr.Module {
				candidates = append(candidates, c)
			}
		}
		p.mu.Unlock()
		slices.SortFunc(candidates, func(a, b *plan.ResourceInstanceChange) int { return a.Addr.Compare(b.Addr) })
		for _, c := range candidates {
			if p.instanceTriggers(c.Addr, attrPath) {
				return fired(c.Addr), ds
			}
		}
	}
	return nil, ds
}

func (p *planner) instanceTriggers(addr addrs.AbsResourceInstance, attrPath cty.Path) bool {
	c := p.changeOf(addr)
	// A new object (created, replaced, or created again after the old one
	// was deleted outside rig) or an updated one triggers, as in OpenTofu
	// 1.12; a delete, a read or a no-op does not. OpenTofu 1.10 and
	// Terraform trigger on updates and replacements only.
	if c == nil || !c.Action.Creates() && c.Action != plan.Update {
		return false
	}
	if len(attrPath) == 0 {
		return true
	}
	// Marks say how values are shown, not whether they changed.
	before, berr := attrPath.Apply(unmarked(c.Before))
	after, aerr := attrPath.Apply(unmarked(c.After))
	if berr != nil || aerr != nil {
		return berr == nil != (aerr == nil)
	}
	return !after.IsKnown() || !before.RawEquals(after)
}

func unmarked(v cty.Value) cty.Value {
	v, _ = v.UnmarkDeep()
	return v
}

// triggerTarget decodes one replace_triggered_by entry: a reference to a
// resource, optionally indexed (by a literal, count.index or each.key) and
// optionally followed by attribute steps.
func triggerTarget(expr hcl.Expression, scope *lang.Scope) (addrs.Resource, addrs.InstanceKey, bool, cty.Path, diag.Diagnostics) {
	invalid := func() (addrs.Resource, addrs.InstanceKey, bool, cty.Path, diag.Diagnostics) {
		return addrs.Resource{}, addrs.NoKey, false, nil, diag.Diagnostics{diag.At(expr.Range(), "Invalid replace_triggered_by expression",
			"Only resources, count.index, and each.key may be used in replace_triggered_by.")}
	}
	var trav hcl.Traversal
	var indexKey hcl.Expression
	var rest hcl.Traversal
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		trav = e.Traversal
	case *hclsyntax.IndexExpr:
		coll, ok := e.Collection.(*hclsyntax.ScopeTraversalExpr)
		if !ok {
			return invalid()
		}
		trav, indexKey = coll.Traversal, e.Key
	case *hclsyntax.RelativeTraversalExpr:
		idx, ok := e.Source.(*hclsyntax.IndexExpr)
		if !ok {
			return invalid()
		}
		coll, ok := idx.Collection.(*hclsyntax.ScopeTraversalExpr)
		if !ok {
			return invalid()
		}
		trav, indexKey, rest = coll.Traversal, idx.Key, e.Traversal
	default:
		t, diags := hcl.AbsTraversalForExpr(expr)
		if diags.HasErrors() {
			return invalid()
		}
		trav = t
	}
	ref, ds := lang.ParseRef(trav)
	if ds.HasErrors() || ref == nil || ref.Kind != lang.ResourceRef || ref.Resource.Mode != addrs.Managed {
		return invalid()
	}
	key, keyGiven := ref.Key, ref.KeyGiven
	remaining := ref.Remaining
	if indexKey != nil {
		if keyGiven {
			return invalid()
		}
		kv, more := scope.EvalExpr(indexKey, cty.DynamicPseudoType)
		if more.HasErrors() {
			return addrs.Resource{}, addrs.NoKey, false, nil, more
		}
		k, err := addrs.KeyFromValue(kv)
		if err != nil {
			return invalid()
		}
		key, keyGiven = k, true
		remaining = append(remaining, rest...)
	}
	return ref.Resource, key, keyGiven, lang.TraversalPath(remaining), ds
}

// preventDestroy returns the error of a plan that destroys an object of
// resource r (at addr) whose prevent_destroy is true. As in OpenTofu 1.12
// the argument is an expression, evaluated in addr's module instance
// without instance data; a value that is unknown, null, sensitive or not a
// bool is an error too ("Invalid value for prevent_destroy").
func (p *planner) preventDestroy(r *config.Resource, addr addrs.AbsResourceInstance) diag.Diagnostics {
	if p.opts.IgnorePreventDestroy || r == nil || r.Managed == nil || r.Managed.PreventDestroy == nil {
		return nil
	}
	expr := r.Managed.PreventDestroy
	b, ds := p.preventDestroyValue(r, addr)
	switch {
	case ds.HasErrors():
		return ds
	case !b.IsKnown():
		return ds.Append(diag.At(expr.Range(), invalidPreventDestroy, fmt.Sprintf("Resource instance %s has a prevent_destroy argument but its value will not be known until the apply step, so rig can't predict whether destroying this is acceptable.\n\nTo proceed, exclude instances of this resource from this round using:\n    -exclude=%q", addr, addr.ContainingResource())))
	case b.IsNull():
		return ds.Append(diag.At(expr.Range(), invalidPreventDestroy, fmt.Sprintf("Resource instance %s has prevent_destroy set to null. When making a dynamic decision to allow destroy, use false instead.", addr)))
	case b.True():
		return ds.Append(diag.At(r.DeclRange, "Resource instance cannot be destroyed", fmt.Sprintf("Resource instance %s has prevent_destroy set, but the plan calls for it to be destroyed.\n\nTo proceed, either disable prevent_destroy for this resource or exclude instances of this resource from this round using:\n    -exclude=%q", addr, addr.ContainingResource())))
	}
	return ds
}

// forgetInstead reports whether an object the plan would destroy (of
// resource r, nil when its block is gone) is forgotten instead, and the
// reason when lifecycle.destroy decided it. As in OpenTofu 1.12, a removed
// block naming the resource decides first (forget unless its destroy =
// true); then the resource's lifecycle.destroy = false, then the
// skip_destroy its state records (the setting of its last configuration).
// Deposed objects are only forgotten by a removed block.
func (p *planner) forgetInstead(r *config.Resource, addr addrs.AbsResourceInstance, dk addrs.DeposedKey, obj *state.Object) (bool, plan.ActionReason) {
	if found, destroy := removedDecision(p.removed, addr.ContainingResource()); found {
		return !destroy, plan.ReasonNone
	}
	switch {
	case dk != addrs.NotDeposed:
		return false, plan.ReasonNone
	case r != nil && r.Managed.SkipsDestroy():
		return true, plan.ForgotBecauseLifecycleDestroyInConfig
	case obj.SkipDestroy:
		return true, plan.ForgotBecauseLifecycleDestroyInState
	}
	return false, plan.ReasonNone
}
