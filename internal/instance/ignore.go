package instance

import (
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/zclconf/go-cty/cty"
)

// ApplyIgnoreChanges returns config with the ignored attribute paths (or all
// attributes, for ignore_changes = all) replaced by their prior values. It
// applies to updates only: the caller skips it when there is no prior object
// and plans a replacement's new object from the configuration as written.
//
// As in OpenTofu, a path ending in a string index (tags["k"]) ignores that
// element of a map (keeping its prior value, or its absence), and the whole
// value when it is not a map (an object); any other path ignores the value
// there as a whole, whatever its type.
func ApplyIgnoreChanges(lc *config.ManagedLifecycle, prior, cfg cty.Value) cty.Value {
	if lc.IgnoreAllChanges {
		// Keep configured-only attributes from prior; computed ones stay as configured (null).
		return keepPriorWhereSet(prior, cfg)
	}
	if len(lc.IgnoreChanges) == 0 || prior.IsNull() || cfg.IsNull() || !cfg.IsKnown() {
		return cfg
	}
	type ignored struct {
		path  cty.Path  // the ignored value, or the map holding the ignored key
		prior cty.Value // the prior value at path
		key   *string   // the ignored map key, if any
	}
	var ignores []ignored
	for _, trav := range lc.IgnoreChanges {
		path := lang.TraversalPath(trav)
		if len(path) == 0 {
			continue
		}
		var key *string
		if last, ok := path[len(path)-1].(cty.IndexStep); ok && last.Key.Type() == cty.String && last.Key.IsKnown() && !last.Key.IsNull() {
			k := last.Key.AsString()
			path, key = path[:len(path)-1], &k
		}
		pv, perr := path.Apply(prior)
		cv, cerr := path.Apply(cfg)
		if perr != nil || cerr != nil || pv.RawEquals(cv) {
			continue
		}
		ignores = append(ignores, ignored{path: path, prior: pv, key: key})
	}
	if len(ignores) == 0 {
		return cfg
	}
	out, _ := cty.Transform(cfg, func(path cty.Path, v cty.Value) (cty.Value, error) {
		if !v.Type().IsMapType() {
			for _, ig := range ignores {
				if path.Equals(ig.path) {
					return ig.prior, nil
				}
			}
			return v, nil
		}
		if !v.IsKnown() {
			return v, nil
		}
		elems := map[string]cty.Value{}
		if !v.IsNull() {
			for it := v.ElementIterator(); it.Next(); {
				k, e := it.Element()
				elems[k.AsString()] = e
			}
		}
		matched := false
		for _, ig := range ignores {
			if !path.Equals(ig.path) {
				continue
			}
			if ig.key == nil {
				return ig.prior, nil
			}
			matched = true
			var pe cty.Value
			if !ig.prior.IsNull() && ig.prior.IsKnown() && ig.prior.Type().IsMapType() {
				if pv := ig.prior.Index(cty.StringVal(*ig.key)); ig.prior.HasIndex(cty.StringVal(*ig.key)).True() {
					pe = pv
				}
			}
			if pe == cty.NilVal {
				// The prior map did not have the key: keep it absent.
				delete(elems, *ig.key)
			} else {
				elems[*ig.key] = pe
			}
		}
		switch {
		case !matched:
			return v, nil
		case len(elems) > 0:
			return cty.MapVal(elems), nil
		case v.IsNull():
			return v, nil
		}
		return cty.MapValEmpty(v.Type().ElementType()), nil
	})
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
