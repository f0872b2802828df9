package apply

import (
	"slices"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// change describes one planned change for an Order test: the resource name
// (terraform_data.NAME), its action, its configured dependencies, the
// dependencies recorded in state for its prior object, CBD, and for the
// delete of an object deposed by an earlier run, its deposed key.
type change struct {
	name     string
	action   plan.Action
	deps     []string
	recorded []string
	cbd      bool
	deposed  addrs.DeposedKey
}

func res(name string) addrs.AbsResource {
	return addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: name}.Absolute(addrs.RootModule)
}

func resList(names []string) []addrs.AbsResource {
	var out []addrs.AbsResource
	for _, n := range names {
		out = append(out, res(n))
	}
	return out
}

func buildPlan(changes []change) *plan.Plan {
	prior := state.New()
	p := &plan.Plan{PriorState: prior}
	pc := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	for _, c := range changes {
		addr := res(c.name).Instance(addrs.NoKey)
		rc := &plan.ResourceInstanceChange{Addr: addr, Deposed: c.deposed, ProviderConfig: pc, Action: c.action, CreateBeforeDestroy: c.cbd,
			Before: cty.EmptyObjectVal, After: cty.EmptyObjectVal}
		if c.action == plan.Delete {
			rc.Dependencies = resList(c.recorded)
		} else {
			rc.Dependencies = resList(c.deps)
		}
		if c.action != plan.Create {
			prior.SetObject(addrs.ObjectAddr{Instance: addr, Deposed: c.deposed}, &state.Object{AttrsJSON: []byte("{}"), Dependencies: resList(c.recorded), CreateBeforeDestroy: c.cbd}, pc)
		}
		p.Changes = append(p.Changes, rc)
	}
	return p
}

// stepsOf renders the waves of g as "destroy b | destroy a | create a, create c".
func stepsOf(g *Graph) string {
	var waves []string
	for _, w := range g.Waves() {
		var ops []string
		for _, op := range w {
			if op.IsBarrier() {
				continue
			}
			verb := g.Verb(op)
			ops = append(ops, verb+" "+op.Addr.Resource.Resource.Name)
		}
		if len(ops) == 0 {
			continue
		}
		slices.Sort(ops)
		waves = append(waves, strings.Join(ops, ", "))
	}
	return strings.Join(waves, " | ")
}

// TestOrderSeeds checks every "Order of operations" of the resource
// destruction notes on the operation graph (B depends on A, C on B).
func TestOrderSeeds(t *testing.T) {
	tests := []struct {
		name    string
		changes []change
		want    string
	}{
		{"simple create", []change{{name: "a", action: plan.Create}, {name: "b", action: plan.Create, deps: []string{"a"}}, {name: "c", action: plan.Create, deps: []string{"b"}}},
			"create a | create b | create c"},
		{"simple update", []change{{name: "a", action: plan.Create}, {name: "b", action: plan.Update, deps: []string{"a"}}, {name: "c", action: plan.Update, deps: []string{"b"}}},
			"create a | update b | update c"},
		{"simple destroy", []change{{name: "a", action: plan.Delete}, {name: "b", action: plan.Delete, recorded: []string{"a"}}, {name: "c", action: plan.Delete, recorded: []string{"b"}}},
			"destroy c | destroy b | destroy a"},
		{"replace all", []change{{name: "a", action: plan.DeleteThenCreate}, {name: "b", action: plan.DeleteThenCreate, deps: []string{"a"}, recorded: []string{"a"}}},
			"destroy b | destroy a | create a | create b"},
		{"replace dependency, update dependent", []change{{name: "a", action: plan.DeleteThenCreate}, {name: "b", action: plan.Update, deps: []string{"a"}, recorded: []string{"a"}}},
			"destroy a | create a | update b"},
		{"destroy then update", []change{{name: "a", action: plan.Update}, {name: "b", action: plan.Delete, recorded: []string{"a"}}},
			"destroy b | update a"},
		{"replace all, dependency CBD", []change{{name: "a", action: plan.CreateThenDelete, cbd: true}, {name: "b", action: plan.DeleteThenCreate, deps: []string{"a"}, recorded: []string{"a"}}},
			"destroy b | create a | create b | destroy a"},
		{"replace dependency CBD, update dependent", []change{{name: "a", action: plan.CreateThenDelete, cbd: true}, {name: "b", action: plan.Update, deps: []string{"a"}, recorded: []string{"a"}}},
			"create a | update b | destroy a"},
		{"update a destroyed CBD dependency", []change{{name: "a", action: plan.Delete, cbd: true}, {name: "b", action: plan.Update, recorded: []string{"a"}}},
			"update b | destroy a"},
		{"update a destroyed dependency", []change{{name: "a", action: plan.Delete}, {name: "b", action: plan.Update, recorded: []string{"a"}}},
			"destroy a | update b"},
		{"forced CBD: both replaced create-first", []change{{name: "a", action: plan.CreateThenDelete, cbd: true}, {name: "b", action: plan.CreateThenDelete, cbd: true, deps: []string{"a"}, recorded: []string{"a"}}},
			"create a | create b | destroy b | destroy a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, ds := Order(buildPlan(tt.changes))
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if got := stepsOf(g); got != tt.want {
				t.Fatalf("order:\n got  %s\n want %s", got, tt.want)
			}
		})
	}
}

// TestOrderCBDWithoutInheritanceIsACycle shows why create_before_destroy is
// inherited: B CBD, its dependency A not, both replaced, makes a cycle, and
// the diagnostic names it and the setting.
func TestOrderCBDWithoutInheritanceIsACycle(t *testing.T) {
	p := buildPlan([]change{
		{name: "a", action: plan.DeleteThenCreate},
		{name: "b", action: plan.CreateThenDelete, cbd: true, deps: []string{"a"}, recorded: []string{"a"}},
	})
	_, ds := Order(p)
	if !ds.HasErrors() {
		t.Fatal("no cycle reported")
	}
	d := ds[0]
	if !strings.HasPrefix(d.Summary, "Cycle: ") {
		t.Fatalf("summary = %q, want a Cycle", d.Summary)
	}
	for _, want := range []string{"terraform_data.a (destroy)", "terraform_data.b (destroy deposed)", "terraform_data.b sets create_before_destroy"} {
		if !strings.Contains(d.Detail, want) {
			t.Errorf("detail %q does not mention %q", d.Detail, want)
		}
	}
}

// TestOrderDeposedLast: an object deposed by an earlier run is destroyed
// after its instance's current object is created or updated, however the
// instance changes (OpenTofu orders every creator of an instance before the
// destroy of each of its deposed objects). With nothing created or
// updated, it goes on its own.
func TestOrderDeposedLast(t *testing.T) {
	earlier := change{name: "a", action: plan.Delete, cbd: true, deposed: "0000abcd"}
	tests := []struct {
		name    string
		changes []change
		want    string
	}{
		{"replaced create-first", []change{{name: "a", action: plan.CreateThenDelete, cbd: true}, earlier},
			"create a | destroy a, destroy a"},
		{"replaced delete-first", []change{{name: "a", action: plan.DeleteThenCreate}, earlier},
			"destroy a | create a | destroy a"},
		{"updated", []change{{name: "a", action: plan.Update, cbd: true}, earlier},
			"update a | destroy a"},
		{"dependent updated first", []change{{name: "a", action: plan.CreateThenDelete, cbd: true}, earlier,
			{name: "b", action: plan.Update, deps: []string{"a"}, recorded: []string{"a"}}},
			"create a | update b | destroy a, destroy a"},
		{"nothing else", []change{earlier}, "destroy a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, ds := Order(buildPlan(tt.changes))
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if got := stepsOf(g); got != tt.want {
				t.Fatalf("order:\n got  %s\n want %s", got, tt.want)
			}
		})
	}
}
