package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
)

// Deletes that wait for every delete of a resource name them as one group
// ("destroy terraform_data.b[*]"), not one by one; a delete waiting for
// only some of a resource's deletes names each.
func TestOrderWavesGroupsWholeResources(t *testing.T) {
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	res := func(name string) addrs.AbsResource {
		return addrs.AbsResource{Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: name}}
	}
	prior := state.New()
	p := &plan.Plan{Mode: plan.DestroyMode, PriorState: prior}
	add := func(r addrs.AbsResource, k addrs.InstanceKey, deps ...addrs.AbsResource) {
		addr := r.Instance(k)
		prior.SetObject(addrs.ObjectAddr{Instance: addr}, &state.Object{AttrsJSON: []byte(`{}`), Dependencies: deps}, pc)
		obj := cty.EmptyObjectVal
		p.Changes = append(p.Changes, &plan.ResourceInstanceChange{Addr: addr, ProviderConfig: pc, Action: plan.Delete,
			Before: obj, After: cty.NullVal(obj.Type()), Dependencies: deps})
	}
	a, b, c := res("a"), res("b"), res("c")
	for i := range 3 {
		add(a, addrs.IntKey(i))
		add(b, addrs.IntKey(i), a)
	}
	add(c, addrs.NoKey, a)
	g, ds := apply.Order(p)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	waves := OrderWaves(g, nil)
	if len(waves) != 2 {
		t.Fatalf("%d waves, want 2", len(waves))
	}
	for _, s := range waves[1] {
		if want := []string{"destroy terraform_data.b[*]", "destroy terraform_data.c"}; !slices.Equal(s.After, want) {
			t.Errorf("%s waits for %s, want %s", s.Address, strings.Join(s.After, ", "), strings.Join(want, ", "))
		}
	}
}
