package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// JSONOptions configure the JSON plan and state representations.
type JSONOptions struct {
	// Version is rig's version, written as "terraform_version" where the
	// format records the version of the program that produced it.
	Version string
	// Config summarizes the configuration for a plan's "configuration";
	// nil writes an empty root module.
	Config *jsonformat.Config
}

// MarshalStateJSON returns the JSON state representation `tofu show -json`
// prints for a state: format_version "1.0", terraform_version (the
// version that last wrote the state, else opts.Version) and the values of
// every object and root output. schemas may be nil: attributes are then
// decoded by the shape of their JSON.
func MarshalStateJSON(s *state.State, schemas SchemaSource, opts JSONOptions) ([]byte, error) {
	version := opts.Version
	if s != nil && s.TerraformVersion != "" {
		version = s.TerraformVersion
	}
	j, err := stateToJSON(s, schemas, version)
	if err != nil {
		return nil, err
	}
	return marshalJSON(j)
}

func stateToJSON(s *state.State, schemas SchemaSource, version string) (*jsonformat.State, error) {
	out := &jsonformat.State{FormatVersion: "1.0"}
	if s == nil || s.Empty() {
		return out, nil
	}
	out.TerraformVersion = version
	vals := &jsonformat.StateValues{}
	var err error
	if vals.Outputs, err = stateOutputsJSON(s.Outputs); err != nil {
		return nil, err
	}
	byModule := map[addrs.ModuleInstance][]jsonformat.StateResource{}
	for _, oa := range stateObjects(s) {
		rj, err := stateResourceJSON(s, oa, schemas)
		if err != nil {
			return nil, err
		}
		byModule[oa.Instance.Module] = append(byModule[oa.Instance.Module], rj)
	}
	vals.RootModule = moduleTree(byModule)
	out.Values = vals
	return out, nil
}

// stateObjects lists the objects of s in the order OpenTofu lists them.
func stateObjects(s *state.State) []addrs.ObjectAddr {
	objs := s.Objects()
	slices.SortStableFunc(objs, func(a, b addrs.ObjectAddr) int {
		if c := compareInstances(a.Instance, b.Instance); c != 0 {
			return c
		}
		return strings.Compare(string(a.Deposed), string(b.Deposed))
	})
	return objs
}

func stateOutputsJSON(outputs map[string]state.OutputValue) (map[string]jsonformat.StateOutput, error) {
	if len(outputs) == 0 {
		return nil, nil
	}
	ret := map[string]jsonformat.StateOutput{}
	for name, ov := range outputs {
		v, _ := ov.Value.UnmarkDeep()
		v = orNull(v)
		val, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", name, err)
		}
		ty, err := ctyjson.MarshalType(v.Type())
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", name, err)
		}
		ret[name] = jsonformat.StateOutput{Sensitive: ov.Sensitive, Value: val, Type: ty}
	}
	return ret, nil
}

func stateResourceJSON(s *state.State, oa addrs.ObjectAddr, schemas SchemaSource) (jsonformat.StateResource, error) {
	r := s.Resource(oa.Instance.ContainingResource())
	obj := s.Object(oa)
	rj := baseResourceJSON(oa.Instance, r.ProviderConfig.Provider)
	rj.SchemaVersion = obj.SchemaVersion
	rj.DeposedKey = string(oa.Deposed)
	rj.Tainted = obj.Status == state.Tainted
	v, _, set, err := decodeObject(r, obj, schemas)
	if err != nil {
		return rj, fmt.Errorf("%s: %w", oa, err)
	}
	v = plan.WithoutNullStore(r.ProviderConfig.Provider, oa.Instance.Resource.Resource.Type, v)
	if rj.AttributeValues, err = attributeValues(v); err != nil {
		return rj, fmt.Errorf("%s: %w", oa, err)
	}
	if rj.SensitiveValues, err = marshalValue(sensitiveAsBool(v, nil, set)); err != nil {
		return rj, fmt.Errorf("%s: %w", oa, err)
	}
	if obj.IdentityJSON != nil {
		rj.Identity, rj.IdentitySchemaVersion = obj.IdentityJSON, obj.IdentitySchemaVersion
	}
	for _, dep := range obj.Dependencies {
		rj.DependsOn = append(rj.DependsOn, dep.String())
	}
	return rj, nil
}

func baseResourceJSON(a addrs.AbsResourceInstance, p addrs.Provider) jsonformat.StateResource {
	r := a.Resource.Resource
	rj := jsonformat.StateResource{Address: a.String(), Mode: r.Mode.String(), Type: r.Type, Name: r.Name, ProviderName: p.String()}
	if !a.Resource.Key.IsNone() {
		rj.Index = json.RawMessage(keyJSON(a.Resource.Key))
	}
	return rj
}

// attributeValues encodes each attribute of an object separately, each by
// its own value's type (so dynamic attributes carry no type wrapper).
func attributeValues(v cty.Value) (map[string]json.RawMessage, error) {
	if isNil(v) || !v.IsKnown() {
		return nil, nil
	}
	ret := map[string]json.RawMessage{}
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		j, err := marshalValue(ev)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", k.AsString(), err)
		}
		ret[k.AsString()] = j
	}
	return ret, nil
}

func marshalValue(v cty.Value) (json.RawMessage, error) {
	return ctyjson.Marshal(v, v.Type())
}

// moduleTree nests the resources of each module under its calling module,
// children sorted by address; modules without resources of their own
// appear when a descendant has some.
func moduleTree(byModule map[addrs.ModuleInstance][]jsonformat.StateResource) jsonformat.StateModule {
	children := map[addrs.ModuleInstance][]addrs.ModuleInstance{}
	seen := map[addrs.ModuleInstance]bool{addrs.RootModule: true}
	for m := range byModule {
		for !seen[m] {
			seen[m] = true
			p, _ := m.Parent()
			children[p] = append(children[p], m)
			m = p
		}
	}
	var build func(m addrs.ModuleInstance) jsonformat.StateModule
	build = func(m addrs.ModuleInstance) jsonformat.StateModule {
		mj := jsonformat.StateModule{Resources: byModule[m], Address: string(m)}
		kids := children[m]
		slices.Sort(kids)
		for _, k := range kids {
			mj.ChildModules = append(mj.ChildModules, build(k))
		}
		return mj
	}
	return build(addrs.RootModule)
}
