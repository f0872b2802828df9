package planner

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// cutOffState records test_file objects: a current one with an identity,
// a deposed one recorded before its provider reported identities, one in
// module m, and a data source and another type that the search for
// managed test_file objects passes over.
func cutOffState(t *testing.T) *state.State {
	t.Helper()
	st := state.New()
	pc := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("test")}
	set := func(mode addrs.ResourceMode, typ, name string, mod addrs.ModuleInstance, attrs, identity string) addrs.AbsResourceInstance {
		inst := addrs.Resource{Mode: mode, Type: typ, Name: name}.Instance(addrs.NoKey).Absolute(mod)
		obj := &state.Object{AttrsJSON: json.RawMessage(attrs)}
		if identity != "" {
			obj.IdentityJSON = json.RawMessage(identity)
		}
		st.SetObject(addrs.ObjectAddr{Instance: inst}, obj, pc)
		return inst
	}
	set(addrs.Managed, "test_file", "current", addrs.RootModule, `{"id":"cur"}`, `{"path":"cur"}`)
	st.Depose(set(addrs.Managed, "test_file", "deposed", addrs.RootModule, `{"id":"old"}`, ""))
	set(addrs.Managed, "test_file", "nested", "module.m", `{"id":"nested"}`, `{"path":"nested"}`)
	set(addrs.Data, "test_file", "read", addrs.RootModule, `{"id":"data"}`, `{"path":"data"}`)
	set(addrs.Managed, "test_other", "x", addrs.RootModule, `{"id":"other"}`, `{"path":"other"}`)
	return st
}

// The objects that count as managed for the cut-off search are the
// current and deposed objects of managed resources of the type, in any
// module; those known by identity and those known by id alike.
func TestManagedObjectsOfType(t *testing.T) {
	st := cutOffState(t)
	var ids []string
	for o := range managedObjects(st, "test_file") {
		var attrs struct{ ID string }
		if err := json.Unmarshal(o.AttrsJSON, &attrs); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, attrs.ID)
	}
	slices.Sort(ids)
	if want := []string{"cur", "nested", "old"}; !slices.Equal(ids, want) {
		t.Errorf("managed test_file objects %q, want %q", ids, want)
	}

	idSchema := provider.Block{Attributes: map[string]*provider.Attribute{"path": {Type: cty.String, Required: true}}}
	got := managedIdentities(st, "test_file", idSchema)
	if want := map[string]bool{`{"path":"cur"}`: true, `{"path":"nested"}`: true}; !maps.Equal(got, want) {
		t.Errorf("managed identities %v, want %v", got, want)
	}

	listed := func(id string) cty.Value { return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id)}) }
	for _, tt := range []struct {
		id   string
		want bool
	}{{"old", true}, {"cur", true}, {"data", false}, {"other", false}, {"new", false}} {
		if got := managedByID(st, "test_file", listed(tt.id)); got != tt.want {
			t.Errorf("managedByID(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}
