package planner

import (
	"slices"
	"sort"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
)

// CutOffHalfMade: no object has every planned value, but one has the
// identity the provider planned for the create: the provider made it and
// was cut off before finishing it, or it was changed since. The user
// decides whether to import it.
const CutOffHalfMade CutOffStatus = "half_made"

// plannedIdentitySearch is the search of a cut-off create's object by the
// identity its provider planned for it.
type plannedIdentitySearch struct {
	// identity holds the planned identity's known attributes, decoded with
	// the identity schema's types; empty when the create recorded none.
	identity map[string]cty.Value
	// found are the objects the list returned when asked by identity.
	found []provider.ListedObject
}

// searchByIdentity asks the provider for the object with the identity the
// create was planned with, where the type's list resource takes every
// attribute of it as a filter: the first of the searches. It records the
// planned identity in f (PlannedIdentity, IdentityFiltered).
func (s *cutOffSearch) searchByIdentity(f *CutOffFinding, c CutOffCreate, prov provider.Interface, lsch, rsch provider.Schema, ds diag.Diagnostics) (plannedIdentitySearch, diag.Diagnostics) {
	var out plannedIdentitySearch
	if len(c.Identity) == 0 || rsch.Identity == nil {
		return out, ds
	}
	out.identity = decodePlanned(c.Identity, rsch.Identity.ImpliedType())
	if len(out.identity) == 0 {
		return out, ds
	}
	for name := range out.identity {
		f.PlannedIdentity = append(f.PlannedIdentity, name+" = "+string(c.Identity[name]))
	}
	sort.Strings(f.PlannedIdentity)
	cfgType := lsch.Block.ImpliedType()
	filter := map[string]cty.Value{}
	for name, ty := range cfgType.AttributeTypes() {
		filter[name] = cty.NullVal(ty)
	}
	for name, v := range out.identity {
		if !cfgType.HasAttribute(name) || !cfgType.AttributeType(name).Equals(v.Type()) {
			// The list cannot be asked by identity: the candidates of
			// the other searches are compared with it instead.
			return out, ds
		}
		filter[name] = v
	}
	typeName := c.Addr.Resource.Resource.Type
	more := prov.ListResource(s.p.ctx, provider.ListRequest{TypeName: typeName, Config: cty.ObjectVal(filter), IncludeResource: true, Limit: DefaultListLimit},
		func(o provider.ListedObject) { out.found = append(out.found, o) })
	ds = ds.Append(asWarnings(diag.WithAddress(more, addrs.ObjectAddr{Instance: c.Addr})))
	if more.HasErrors() {
		out.found = nil // the searches by values still run
		return out, ds
	}
	f.IdentityFiltered = true
	return out, ds
}

// matches reports whether a listed object's identity has every attribute
// of the planned identity.
func (ps plannedIdentitySearch) matches(identity cty.Value) bool {
	if len(ps.identity) == 0 || identity == cty.NilVal || identity.IsNull() || !identity.Type().IsObjectType() {
		return false
	}
	for name, want := range ps.identity {
		if !identity.Type().HasAttribute(name) {
			return false
		}
		got, _ := identity.GetAttr(name).UnmarkDeep()
		if !got.IsWhollyKnown() || got.IsNull() || !got.Equals(want).True() {
			return false
		}
	}
	return true
}

// judge completes a candidate's comparison with the planned identity:
// when the create recorded one, only an object that has it can be the
// create's, so it is exact only with that identity and every planned
// value; with the identity and other values it is the create's object
// half-made, for the user to decide.
func (ps plannedIdentitySearch) judge(c CutOffCandidate, o provider.ListedObject) CutOffCandidate {
	if len(ps.identity) == 0 {
		return c
	}
	c.IdentityMatch = ps.matches(o.Identity)
	c.Exact = c.IdentityMatch && len(c.Differences) == 0
	return c
}

// keepIdentityMatches drops, from the candidates of a create whose planned
// identity one of them has, those that do not have it: an object with
// another identity is not the one the create was making.
func keepIdentityMatches(f *CutOffFinding) {
	for _, c := range f.Candidates {
		if c.IdentityMatch {
			kept := f.Candidates[:0]
			for _, c := range f.Candidates {
				if c.IdentityMatch {
					kept = append(kept, c)
				}
			}
			f.Candidates = kept
			return
		}
	}
}

// dropOthersIdentityMatches drops, from each finding's candidates, the
// objects that have the identity planned for another cut-off create:
// such an object is that create's, made whole or half.
func dropOthersIdentityMatches(fs []CutOffFinding) {
	claimed := map[string]bool{}
	for _, f := range fs {
		for _, c := range f.Candidates {
			if c.IdentityMatch {
				claimed[f.ProviderConfig.String()+" "+c.IdentityJSON] = true
			}
		}
	}
	if len(claimed) == 0 {
		return
	}
	for i := range fs {
		f := &fs[i]
		f.Candidates = slices.DeleteFunc(f.Candidates, func(c CutOffCandidate) bool {
			return !c.IdentityMatch && claimed[f.ProviderConfig.String()+" "+c.IdentityJSON]
		})
	}
}
