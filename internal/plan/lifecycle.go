package plan

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/zclconf/go-cty/cty"
)

// ApplyIgnoreChanges returns config with the ignored attribute paths (or all
// attributes, for ignore_changes = all) replaced by their prior values. It
// applies to updates only: the caller skips it when there is no prior object.
func ApplyIgnoreChanges(lc *config.ManagedLifecycle, prior, cfg cty.Value) cty.Value {
	if lc.IgnoreAllChanges {
		// Keep configured-only attributes from prior; computed ones stay as configured (null).
		return keepPriorWhereSet(prior, cfg)
	}
	if len(lc.IgnoreChanges) == 0 || cfg.IsNull() || !cfg.IsKnown() {
		return cfg
	}
	out := cfg
	for _, trav := range lc.IgnoreChanges {
		path := traversalPath(trav)
		if path == nil {
			continue
		}
		pv, err := path.Apply(prior)
		if err != nil {
			// The prior object has nothing at this path (e.g. a new map key): remove it from config.
			pv = cty.NilVal
		}
		out = setPath(out, path, pv)
	}
	return out
}

// keepPriorWhereSet returns an object with the prior value of every
// attribute that config has, for ignore_changes = all.
func keepPriorWhereSet(prior, cfg cty.Value) cty.Value {
	if !cfg.Type().IsObjectType() || prior.IsNull() {
		return cfg
	}
	vals := map[string]cty.Value{}
	for name := range cfg.Type().AttributeTypes() {
		if prior.Type().HasAttribute(name) {
			vals[name] = prior.GetAttr(name)
		} else {
			vals[name] = cfg.GetAttr(name)
		}
	}
	return cty.ObjectVal(vals)
}

// traversalPath converts a relative traversal (attr, attr["k"], attr[0]) to a cty.Path.
func traversalPath(trav hcl.Traversal) cty.Path {
	var path cty.Path
	for _, t := range trav {
		switch t := t.(type) {
		case hcl.TraverseRoot:
			path = path.GetAttr(t.Name)
		case hcl.TraverseAttr:
			path = path.GetAttr(t.Name)
		case hcl.TraverseIndex:
			path = path.Index(t.Key)
		default:
			return nil
		}
	}
	return path
}

// setPath returns v with the value at path replaced by nv; a NilVal nv
// removes a map element. Paths that do not exist in v leave it unchanged.
func setPath(v cty.Value, path cty.Path, nv cty.Value) cty.Value {
	if len(path) == 0 {
		if nv == cty.NilVal {
			return v
		}
		return nv
	}
	if v.IsNull() || !v.IsKnown() {
		return v
	}
	ty := v.Type()
	switch step := path[0].(type) {
	case cty.GetAttrStep:
		if !ty.IsObjectType() || !ty.HasAttribute(step.Name) {
			return v
		}
		vals := v.AsValueMap()
		child := setPath(vals[step.Name], path[1:], nv)
		if child == cty.NilVal || !child.Type().Equals(vals[step.Name].Type()) && !vals[step.Name].Type().Equals(cty.DynamicPseudoType) {
			return v
		}
		vals[step.Name] = child
		return cty.ObjectVal(vals)
	case cty.IndexStep:
		switch {
		case ty.IsMapType() && step.Key.Type() == cty.String:
			vals := v.AsValueMap()
			if vals == nil {
				vals = map[string]cty.Value{}
			}
			k := step.Key.AsString()
			if len(path) == 1 && nv == cty.NilVal {
				delete(vals, k)
			} else if cur, ok := vals[k]; ok {
				vals[k] = setPath(cur, path[1:], nv)
			} else if len(path) == 1 {
				vals[k] = nv
			}
			if len(vals) == 0 {
				return cty.MapValEmpty(ty.ElementType())
			}
			return cty.MapVal(vals)
		case ty.IsListType() && step.Key.Type() == cty.Number:
			elems := v.AsValueSlice()
			i, _ := step.Key.AsBigFloat().Int64()
			if i < 0 || int(i) >= len(elems) || nv == cty.NilVal && len(path) == 1 {
				return v
			}
			elems[i] = setPath(elems[i], path[1:], nv)
			return cty.ListVal(elems)
		}
	}
	return v
}

// replaceTriggered reports whether any replace_triggered_by entry of r names
// something planned to change: a resource or instance planned to update or
// be replaced, or an attribute whose value changes.
func (p *planner) replaceTriggered(r *config.Resource, scope *lang.Scope, addr addrs.AbsResourceInstance) (bool, diag.Diagnostics) {
	if r.Managed == nil {
		return false, nil
	}
	var ds diag.Diagnostics
	for _, expr := range r.Managed.ReplaceTriggeredBy {
		target, key, keyGiven, attrPath, more := triggerTarget(expr, scope)
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		if keyGiven {
			if p.instanceTriggers(target.Instance(key).Absolute(addrs.RootModule), attrPath) {
				return true, ds
			}
			continue
		}
		// The whole resource: any of its instances.
		p.mu.Lock()
		var candidates []*ResourceInstanceChange
		for a, c := range p.byAddr {
			if a.Resource.Resource == target {
				candidates = append(candidates, c)
			}
		}
		p.mu.Unlock()
		for _, c := range candidates {
			if p.instanceTriggers(c.Addr, attrPath) {
				return true, ds
			}
		}
	}
	return false, ds
}

func (p *planner) instanceTriggers(addr addrs.AbsResourceInstance, attrPath cty.Path) bool {
	c := p.changeOf(addr)
	if c == nil {
		return false
	}
	if len(attrPath) == 0 {
		return c.Action == Update || c.Action.IsReplace()
	}
	before, berr := attrPath.Apply(c.Before)
	after, aerr := attrPath.Apply(c.After)
	if berr != nil || aerr != nil {
		return berr == nil != (aerr == nil)
	}
	return !after.IsKnown() || !before.RawEquals(after)
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
	return ref.Resource, key, keyGiven, traversalPath(remaining), ds
}
