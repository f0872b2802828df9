package planner_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// TestPlanSharesRecordedLists: a plan's changes record the dependency
// lists of the prior state's objects where they are the same, whether the
// reference graph was built by the plan or by the validation before it.
func TestPlanSharesRecordedLists(t *testing.T) {
	src := "resource \"test_thing\" \"a\" {\n  value = \"x\"\n}\n" +
		"resource \"test_thing\" \"b\" {\n  value = test_thing.a.value\n}\n" +
		"resource \"test_thing\" \"c\" {\n  value = test_thing.b.value\n}\n"
	thing := func(name string) addrs.AbsResource {
		return addrs.AbsResource{Resource: addrs.Resource{Mode: addrs.Managed, Type: providertest.ThingType, Name: name}}
	}
	for _, validateFirst := range []bool{false, true} {
		cfg, ds := config.LoadTreeFS(fstest.MapFS{"main.tf": {Data: []byte(src), Mode: 0o644}}, config.TreeOptions{})
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		st := state.New()
		pc := addrs.AbsProviderConfig{Provider: providertest.Address()}
		recorded := map[string][]addrs.AbsResource{
			"b": {thing("c")},             // not what the configuration says
			"c": {thing("a"), thing("b")}, // what it says
		}
		for _, name := range []string{"a", "b", "c"} {
			st.SetObject(addrs.ObjectAddr{Instance: thing(name).Instance(addrs.NoKey)},
				&state.Object{AttrsJSON: []byte(`{"id":"` + name + `","value":"x"}`), Dependencies: recorded[name]}, pc)
		}
		set := providerSet(providertest.New())
		if validateFirst {
			if ds := planner.Validate(context.Background(), cfg, set, planner.ValidateOptions{ForPlan: true, Dependencies: plan.TransitiveDependencies, Prior: st}); ds.HasErrors() {
				t.Fatal(ds.Err())
			}
		}
		p, ds := planner.Make(context.Background(), cfg, st, set, planner.Options{Mode: plan.NormalMode, Dependencies: plan.TransitiveDependencies, SkipRefresh: true})
		set.Close()
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		for _, c := range p.Changes {
			name := c.Addr.Resource.Resource.Name
			switch name {
			case "b":
				if diff := cmp.Diff([]addrs.AbsResource{thing("a")}, c.Dependencies); diff != "" {
					t.Errorf("validate first %v: b's dependencies (-want +got):\n%s", validateFirst, diff)
				}
			case "c":
				if diff := cmp.Diff(recorded["c"], c.Dependencies); diff != "" {
					t.Errorf("validate first %v: c's dependencies (-want +got):\n%s", validateFirst, diff)
				} else if &c.Dependencies[0] != &recorded["c"][0] {
					t.Errorf("validate first %v: c's dependencies are a copy of the recorded list", validateFirst)
				}
			}
		}
		if diff := cmp.Diff([]addrs.AbsResource{thing("c")}, recorded["b"]); diff != "" {
			t.Errorf("b's recorded list was modified (-want +got):\n%s", diff)
		}
	}
}
