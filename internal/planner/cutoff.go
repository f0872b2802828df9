package planner

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"sort"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// CutOffListLimit is how many objects of a type rig asks a provider for
// when it lists them all to find an object a create cut off by a crash
// left half-made (matching no planned value).
const CutOffListLimit = 1000

// CutOffCreate is a create a crash cut off: the instance and the values
// it was planned with (its known, non-sensitive top-level attributes, as
// JSON, by name). Count is how many creates of the instance were cut off
// (an apply killed, then the one after it), each of which may have made
// an object; the values are the last one's. Identity holds the known
// attributes of the resource identity the provider planned for the object
// (as JSON, by name), when it planned one.
type CutOffCreate struct {
	Addr     addrs.AbsResourceInstance
	Values   map[string]json.RawMessage
	Identity map[string]json.RawMessage
	Count    int
}

// CutOffStatus is what the search for a cut-off create's object found.
type CutOffStatus string

const (
	// CutOffFound: one object the state does not record has the planned
	// values (at most one per create cut off at the address), and no other
	// cut-off create claims it: rig imports it on confirmation.
	CutOffFound CutOffStatus = "found"
	// CutOffAmbiguous: several objects have the planned values, or the one
	// that has them matches another cut-off create too: the user picks.
	CutOffAmbiguous CutOffStatus = "ambiguous"
	// CutOffNear: no object has the planned values, but the provider lists
	// objects of the type the state does not record (a half-made object, or
	// one made outside rig): the user decides.
	CutOffNear CutOffStatus = "near"
	// CutOffAbsent: the provider lists no object of the type that the state
	// does not record: the create made nothing (or it is gone).
	CutOffAbsent CutOffStatus = "absent"
	// CutOffUnsearchable: the provider cannot list the type (or the
	// configuration no longer declares the instance): look by hand.
	CutOffUnsearchable CutOffStatus = "unsearchable"
)

// CutOffCandidate is an object the provider listed that the state does
// not record, compared with a cut-off create's planned values.
type CutOffCandidate struct {
	// Identity is the object's resource identity; IdentityJSON the same
	// as compact JSON, which names the candidate.
	Identity     cty.Value
	IdentityJSON string
	// DisplayName is the provider's name for the object.
	DisplayName string
	// Exact says the object has every planned value the provider reports.
	Exact bool
	// Matched names the planned attributes the object has; Differences
	// those it has with another value; Unreported those the provider did
	// not report (null in what it listed).
	Matched     []string
	Differences []CutOffDifference
	Unreported  []string
	// Filtered says the provider found the object by the planned values
	// (the list resource's filters); otherwise only by listing every object
	// of the type.
	Filtered bool
	// IdentityMatch says the object has the identity the provider planned
	// for the create (CutOffCreate.Identity).
	IdentityMatch bool
}

// CutOffDifference is a planned attribute a candidate holds another value
// of, both as JSON.
type CutOffDifference struct {
	Name    string `json:"name"`
	Planned string `json:"planned"`
	Found   string `json:"found"`
}

// CutOffFinding is what rig found for one cut-off create.
type CutOffFinding struct {
	Create         CutOffCreate
	ProviderConfig addrs.AbsProviderConfig
	Status         CutOffStatus
	// SearchedBy lists the filters of the search by planned values
	// ("content = \"a\""); empty when the list resource takes none of them.
	SearchedBy []string
	// ByIdentity says the filters include every identity attribute.
	ByIdentity bool
	// Candidates are the exact matches first, in identity order, then the
	// near ones, those that have the most planned values first
	// (rankCandidates).
	Candidates []CutOffCandidate
	// Occupied says the state has a current object at the address (an
	// apply since the crash made one): a candidate is an extra object.
	Occupied bool
	// Note says why the create could not be searched for.
	Note string
	// PlannedIdentity lists the identity the create was planned with
	// ("id = \"a\""), empty when none; IdentityFiltered says the provider
	// was asked for the object with it (the first search).
	PlannedIdentity  []string
	IdentityFiltered bool
}

// FindCutOffCreates asks the providers, for each create a crash cut off,
// which objects of its type exist that the state does not record: first
// filtered by the values the create was planned with (where the type's
// list resource takes them as filters), then all of them (at most
// CutOffListLimit), so that an object the provider made but never
// finished writing is found too. Each object is compared with the planned
// values. Nothing is changed.
func FindCutOffCreates(ctx context.Context, cfg *config.Module, prior *state.State, providers *provider.Set, creates []CutOffCreate, opts Options) ([]CutOffFinding, diag.Diagnostics) {
	if prior == nil {
		prior = state.New()
	}
	p := &planner{
		ctx: ctx, cfg: cfg, providers: providers, opts: opts,
		prevRun: prior, refreshed: prior.DeepCopy(),
		planned:   map[addrs.AbsResource]cty.Value{},
		schemas:   map[addrs.ConfigResource]provider.Schema{},
		timestamp: time.Now().UTC(),
	}
	ds := p.prepareImport()
	if ds.HasErrors() {
		return nil, ds
	}
	s := &cutOffSearch{p: p, all: map[string][]provider.ListedObject{}}
	out := make([]CutOffFinding, len(creates))
	for i, c := range creates {
		out[i], ds = s.search(c, ds)
	}
	classifyCutOff(out)
	return out, ds
}

// cutOffSearch is one FindCutOffCreates: each type's full listing is
// asked for once.
type cutOffSearch struct {
	p   *planner
	all map[string][]provider.ListedObject // by provider configuration and type
}

func (s *cutOffSearch) search(c CutOffCreate, ds diag.Diagnostics) (CutOffFinding, diag.Diagnostics) {
	p := s.p
	f := CutOffFinding{Create: c, Status: CutOffUnsearchable}
	if inst := p.prevRun.Instance(c.Addr); inst != nil && inst.Current != nil {
		f.Occupied = true
	}
	typeName := c.Addr.Resource.Resource.Type
	pc, prov, more := p.resourceInstanceProvider(c.Addr)
	if more.HasErrors() {
		f.Note = "the configuration no longer declares it, or its provider could not be configured"
		return f, ds.Append(asWarnings(more))
	}
	ds = ds.Append(more)
	f.ProviderConfig = pc
	schemas, more := p.providers.Schemas(p.ctx, pc.Provider)
	if more.HasErrors() {
		f.Note = "its provider's schema could not be read"
		return f, ds.Append(asWarnings(more))
	}
	ds = ds.Append(more)
	lsch, listable := schemas.ListResources[typeName]
	rsch, ok := schemas.ResourceTypes[typeName]
	if !listable || !ok || rsch.Identity == nil {
		f.Note = fmt.Sprintf("the provider %s cannot list %s objects", pc.Provider.ForDisplay(), typeName)
		return f, ds
	}
	planned := decodePlanned(c.Values, rsch.Block.ImpliedType())
	byIdentity, ds := s.searchByIdentity(&f, c, prov, lsch, rsch, ds)

	// The search by planned values: each attribute of the list
	// resource's config that the create was planned with.
	cfgType := lsch.Block.ImpliedType()
	filter := map[string]cty.Value{}
	for name, ty := range cfgType.AttributeTypes() {
		filter[name] = cty.NullVal(ty)
		if v, ok := planned[name]; ok && v.Type().Equals(ty) {
			filter[name] = v
			f.SearchedBy = append(f.SearchedBy, name+" = "+string(c.Values[name]))
		}
	}
	sort.Strings(f.SearchedBy)
	f.ByIdentity = len(f.SearchedBy) > 0
	for name := range rsch.Identity.Attributes {
		if v, ok := filter[name]; !ok || v.IsNull() {
			f.ByIdentity = false
		}
	}
	var filtered []provider.ListedObject
	if len(f.SearchedBy) > 0 {
		more = prov.ListResource(p.ctx, provider.ListRequest{TypeName: typeName, Config: cty.ObjectVal(filter), IncludeResource: true, Limit: DefaultListLimit},
			func(o provider.ListedObject) { filtered = append(filtered, o) })
		if more.HasErrors() {
			f.Note = "the provider's list failed"
			return f, ds.Append(asWarnings(diag.WithAddress(more, addrs.ObjectAddr{Instance: c.Addr})))
		}
		ds = ds.Append(diag.WithAddress(more, addrs.ObjectAddr{Instance: c.Addr}))
	}
	key := pc.String() + " " + typeName
	all, listed := s.all[key]
	if !listed {
		empty := map[string]cty.Value{}
		for name, ty := range cfgType.AttributeTypes() {
			empty[name] = cty.NullVal(ty)
		}
		more = prov.ListResource(p.ctx, provider.ListRequest{TypeName: typeName, Config: cty.ObjectVal(empty), IncludeResource: true, Limit: CutOffListLimit},
			func(o provider.ListedObject) { all = append(all, o) })
		if more.HasErrors() {
			f.Note = "the provider's list failed"
			return f, ds.Append(asWarnings(diag.WithAddress(more, addrs.ObjectAddr{Instance: c.Addr})))
		}
		ds = ds.Append(diag.WithAddress(more, addrs.ObjectAddr{Instance: c.Addr}))
		s.all[key] = all
	}
	f.Status = CutOffAbsent
	managed := managedIdentities(p.prevRun, typeName, *rsch.Identity)
	seen := map[string]bool{}
	add := func(o provider.ListedObject, byFilter bool) {
		if o.Identity == cty.NilVal || !o.Identity.IsWhollyKnown() {
			return
		}
		id := identityKey(o.Identity)
		if seen[id] || managed[id] || managedByID(p.prevRun, typeName, o.Resource) {
			return
		}
		seen[id] = true
		f.Candidates = append(f.Candidates, byIdentity.judge(compareCandidate(o, id, planned, c.Values, byFilter), o))
	}
	for _, o := range byIdentity.found {
		add(o, true)
	}
	for _, o := range filtered {
		add(o, true)
	}
	for _, o := range all {
		add(o, false)
	}
	return f, ds
}

// asWarnings returns ds with its errors made warnings: a search that
// failed leaves its create unsearched, the others go on.
func asWarnings(ds diag.Diagnostics) diag.Diagnostics {
	out := make(diag.Diagnostics, len(ds))
	for i, d := range ds {
		d.Severity = diag.Warning
		out[i] = d
	}
	return out
}

// resourceInstanceProvider is the configured provider of the resource
// instance addr, which the configuration must declare.
func (p *planner) resourceInstanceProvider(addr addrs.AbsResourceInstance) (addrs.AbsProviderConfig, provider.Interface, diag.Diagnostics) {
	m := p.cfg.Descendant(addr.Module.Module())
	var r *config.Resource
	if addr.Resource.Resource.Mode == addrs.Managed && m != nil && p.eval.ModuleInstanceExists(addr.Module) {
		r = m.ResourceByAddr(addr.Resource.Resource)
	}
	if r == nil {
		return addrs.AbsProviderConfig{}, nil, diag.Diagnostics{diag.Errorf("Configuration for the cut-off create does not exist",
			"The configuration no longer declares %s, so rig cannot tell which provider configuration to search with. Restore its resource block, or look for the object by hand.", addr)}
	}
	return p.resourceProvider(m, r, addr)
}

// decodePlanned decodes the planned values of a cut-off create with the
// resource type's attribute types; values that no longer fit are left out.
func decodePlanned(values map[string]json.RawMessage, ty cty.Type) map[string]cty.Value {
	out := map[string]cty.Value{}
	for name, raw := range values {
		if !ty.HasAttribute(name) {
			continue
		}
		v, err := ctyjson.Unmarshal(raw, ty.AttributeType(name))
		if err != nil || v.IsNull() {
			continue
		}
		out[name] = v
	}
	return out
}

// identityKey is an identity's compact JSON, which names an object.
func identityKey(v cty.Value) string {
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return v.GoString()
	}
	return string(b)
}

// managedIdentities returns the identities (identityKey) of the objects of
// typeName the state records, current and deposed.
func managedIdentities(st *state.State, typeName string, idSchema provider.Block) map[string]bool {
	out := map[string]bool{}
	ty := idSchema.ImpliedType()
	for o := range managedObjects(st, typeName) {
		if len(o.IdentityJSON) == 0 {
			continue
		}
		if v, err := ctyjson.Unmarshal(o.IdentityJSON, ty); err == nil && !v.IsNull() {
			out[identityKey(v)] = true
		}
	}
	return out
}

// managedByID reports whether the state records an object of typeName
// with listed's id attribute: an object recorded before its provider
// reported identities.
func managedByID(st *state.State, typeName string, listed cty.Value) bool {
	if listed == cty.NilVal || listed.IsNull() || !listed.Type().IsObjectType() || !listed.Type().HasAttribute("id") {
		return false
	}
	id := listed.GetAttr("id")
	if !id.IsKnown() || id.IsNull() || !id.Type().Equals(cty.String) {
		return false
	}
	want := id.AsString()
	for o := range managedObjects(st, typeName) {
		var attrs struct {
			ID *string `json:"id"`
		}
		if json.Unmarshal(o.AttrsJSON, &attrs) == nil && attrs.ID != nil && *attrs.ID == want {
			return true
		}
	}
	return false
}

// managedObjects yields the objects, current and deposed, of the managed
// resources of typeName the state records, in no particular order.
func managedObjects(st *state.State, typeName string) iter.Seq[*state.Object] {
	return func(yield func(*state.Object) bool) {
		for ra, r := range st.Resources {
			if ra.Resource.Type != typeName || ra.Resource.Mode != addrs.Managed {
				continue
			}
			for _, inst := range r.Instances {
				if inst.Current != nil && !yield(inst.Current) {
					return
				}
				for _, o := range inst.Deposed {
					if o != nil && !yield(o) {
						return
					}
				}
			}
		}
	}
}

// compareCandidate compares a listed object with the planned values.
func compareCandidate(o provider.ListedObject, id string, planned map[string]cty.Value, raw map[string]json.RawMessage, byFilter bool) CutOffCandidate {
	c := CutOffCandidate{Identity: o.Identity, IdentityJSON: id, DisplayName: o.DisplayName, Filtered: byFilter}
	if o.Resource == cty.NilVal || o.Resource.IsNull() {
		// Listed without its attributes: only the filters vouch for it.
		c.Exact = byFilter
		for name := range planned {
			c.Unreported = append(c.Unreported, name)
		}
		sort.Strings(c.Unreported)
		return c
	}
	names := make([]string, 0, len(planned))
	for name := range planned {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !o.Resource.Type().HasAttribute(name) {
			c.Unreported = append(c.Unreported, name)
			continue
		}
		got, _ := o.Resource.GetAttr(name).UnmarkDeep()
		switch {
		case got.IsNull() || !got.IsWhollyKnown():
			c.Unreported = append(c.Unreported, name)
		case got.Equals(planned[name]).True():
			c.Matched = append(c.Matched, name)
		default:
			b, _ := ctyjson.Marshal(got, got.Type())
			c.Differences = append(c.Differences, CutOffDifference{Name: name, Planned: string(raw[name]), Found: string(b)})
		}
	}
	c.Exact = len(c.Differences) == 0 && (len(c.Matched) > 0 || byFilter)
	return c
}

// classifyCutOff sets each searched finding's status: found when it has
// one exact candidate that no other finding has, ambiguous when it has
// several or shares one, half made when the best of its inexact ones has
// the planned identity, near when it has only other inexact ones, absent
// when it has none; and ranks the candidates (rankCandidates).
func classifyCutOff(fs []CutOffFinding) {
	dropOthersIdentityMatches(fs)
	claims := map[string]int{}
	for _, f := range fs {
		for _, c := range f.Candidates {
			if c.Exact {
				claims[f.ProviderConfig.String()+" "+c.IdentityJSON]++
			}
		}
	}
	for i := range fs {
		f := &fs[i]
		if f.Status == CutOffUnsearchable {
			continue
		}
		// A near candidate that is another create's exact match is not
		// this one's, nor is any once the create has exact ones.
		hasExact := slices.ContainsFunc(f.Candidates, func(c CutOffCandidate) bool { return c.Exact })
		f.Candidates = slices.DeleteFunc(f.Candidates, func(c CutOffCandidate) bool {
			return !c.Exact && (hasExact || claims[f.ProviderConfig.String()+" "+c.IdentityJSON] > 0)
		})
		keepIdentityMatches(f)
		slices.SortStableFunc(f.Candidates, rankCandidates)
		exact := 0
		shared := false
		for _, c := range f.Candidates {
			if c.Exact {
				exact++
				shared = shared || claims[f.ProviderConfig.String()+" "+c.IdentityJSON] > 1
			}
		}
		count := max(f.Create.Count, 1)
		switch {
		case exact >= 1 && exact <= count && !shared:
			f.Status = CutOffFound
		case exact > 0:
			f.Status = CutOffAmbiguous
		case len(f.Candidates) > 0 && f.Candidates[0].IdentityMatch:
			f.Status = CutOffHalfMade
		case len(f.Candidates) > 0:
			f.Status = CutOffNear
		default:
			f.Status = CutOffAbsent
		}
	}
}
