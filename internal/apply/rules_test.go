package apply

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/plan"
)

// TestEdgeRules checks the rule recorded for every edge of the seeds'
// scenarios: each line is "X before Y: rule".
func TestEdgeRules(t *testing.T) {
	tests := []struct {
		name    string
		changes []change
		want    []string
	}{
		{"create in dependency order", []change{{name: "a", action: plan.Create}, {name: "b", action: plan.Create, deps: []string{"a"}}},
			[]string{"terraform_data.a (create) before terraform_data.b (create): dependency: terraform_data.b depends on terraform_data.a"}},
		{"destroy in reverse", []change{{name: "a", action: plan.Delete}, {name: "b", action: plan.Delete, recorded: []string{"a"}}},
			[]string{"terraform_data.b (destroy) before terraform_data.a (destroy): reverse of creation: terraform_data.b depended on terraform_data.a"}},
		{"replace one, update dependent", []change{{name: "a", action: plan.DeleteThenCreate}, {name: "b", action: plan.Update, deps: []string{"a"}, recorded: []string{"a"}}},
			[]string{
				"terraform_data.a (create) before terraform_data.b (update): dependency: terraform_data.b depends on terraform_data.a",
				"terraform_data.a (destroy) before terraform_data.a (create): replacement: destroy before create",
				"terraform_data.a (destroy) before terraform_data.b (update): dependency: terraform_data.b depends on terraform_data.a, whose old object is destroyed first",
			}},
		{"replace all", []change{{name: "a", action: plan.DeleteThenCreate}, {name: "b", action: plan.DeleteThenCreate, deps: []string{"a"}, recorded: []string{"a"}}},
			[]string{
				"terraform_data.a (create) before terraform_data.b (create): dependency: terraform_data.b depends on terraform_data.a",
				"terraform_data.a (destroy) before terraform_data.a (create): replacement: destroy before create",
				"terraform_data.a (destroy) before terraform_data.b (create): dependency: terraform_data.b depends on terraform_data.a, whose old object is destroyed first",
				"terraform_data.b (destroy) before terraform_data.a (create): destroy before dependency: terraform_data.b depended on terraform_data.a, which is created or updated after it is destroyed",
				"terraform_data.b (destroy) before terraform_data.a (destroy): reverse of creation: terraform_data.b depended on terraform_data.a",
				"terraform_data.b (destroy) before terraform_data.b (create): replacement: destroy before create",
			}},
		{"CBD dependency replaced, dependent updated", []change{{name: "a", action: plan.CreateThenDelete, cbd: true}, {name: "b", action: plan.Update, deps: []string{"a"}, recorded: []string{"a"}}},
			[]string{
				"terraform_data.a (create) before terraform_data.a (destroy deposed): create_before_destroy: create before destroying the deposed object",
				"terraform_data.a (create) before terraform_data.b (update): dependency: terraform_data.b depends on terraform_data.a",
				"terraform_data.b (update) before terraform_data.a (destroy deposed): create_before_destroy: terraform_data.b depends on terraform_data.a, whose old object is destroyed after its dependents are updated",
			}},
		{"object deposed earlier, instance replaced create-first", []change{{name: "a", action: plan.CreateThenDelete, cbd: true}, {name: "a", action: plan.Delete, cbd: true, deposed: "0000abcd"}},
			[]string{
				"terraform_data.a (create) before terraform_data.a (deposed object 0000abcd) (destroy): create_before_destroy: an object deposed by an earlier run is destroyed after the instance's current object is created or updated",
				"terraform_data.a (create) before terraform_data.a (destroy deposed): create_before_destroy: create before destroying the deposed object",
			}},
		{"destroyed dependency, dependent updated", []change{{name: "a", action: plan.Delete}, {name: "b", action: plan.Update, recorded: []string{"a"}}},
			[]string{"terraform_data.a (destroy) before terraform_data.b (update): dependency: terraform_data.b depends on terraform_data.a, whose old object is destroyed first"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, ds := OrderWith(buildPlan(tt.changes), OrderOptions{Rules: true})
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			var got []string
			for _, e := range g.G.Edges() {
				got = append(got, g.label(e.From)+" before "+g.label(e.To)+": "+g.DescribeEdge(e.From, e.To))
			}
			slices.Sort(got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("edges (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOrderRecordsNoRulesByDefault: Order, used by plan and apply, keeps no
// rules; OrderWith records them on request.
func TestOrderRecordsNoRulesByDefault(t *testing.T) {
	p := buildPlan([]change{{name: "a", action: plan.Create}, {name: "b", action: plan.Create, deps: []string{"a"}}})
	g, _ := Order(p)
	a, b := Op{Addr: res("a").Instance(addrs.NoKey), Kind: OpCreate}, Op{Addr: res("b").Instance(addrs.NoKey), Kind: OpCreate}
	if g.RecordsRules() || g.EdgeRule(a, b) != RuleUnknown {
		t.Errorf("Order recorded rules")
	}
	g, _ = OrderWith(p, OrderOptions{Rules: true})
	if got := g.EdgeRule(a, b); got != RuleDependency {
		t.Errorf("EdgeRule(a, b) = %s, want %s", got, RuleDependency)
	}
}

// TestCycleDiagnostic checks the diagnostic of the seeds' "incorrect
// create_before_destroy replacement": every edge of the cycle with its rule
// and the setting that caused it.
func TestCycleDiagnostic(t *testing.T) {
	p := buildPlan([]change{
		{name: "a", action: plan.DeleteThenCreate},
		{name: "b", action: plan.CreateThenDelete, cbd: true, deps: []string{"a"}, recorded: []string{"a"}},
	})
	_, ds := Order(p)
	if len(ds) != 1 {
		t.Fatalf("got %d diagnostics, want 1: %v", len(ds), ds)
	}
	got := ds[0].Summary + "\n\n" + ds[0].Detail + "\n"
	golden.Check(t, "testdata/cycle-cbd.golden", got)
}

// TestCycleDiagnosticPointsAtTheSetting: given the configuration, the
// cycle's diagnostic points at the create_before_destroy that inverted an
// edge of it.
func TestCycleDiagnosticPointsAtTheSetting(t *testing.T) {
	cfg, ds := config.LoadFiles(map[string][]byte{"main.tf": []byte(`resource "terraform_data" "a" {
  triggers_replace = "2"
}

resource "terraform_data" "b" {
  input = terraform_data.a.id
  lifecycle {
    create_before_destroy = true
  }
}
`)})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	p := buildPlan([]change{
		{name: "a", action: plan.DeleteThenCreate},
		{name: "b", action: plan.CreateThenDelete, cbd: true, deps: []string{"a"}, recorded: []string{"a"}},
	})
	_, ds = OrderWith(p, OrderOptions{Config: cfg})
	if len(ds) != 1 {
		t.Fatalf("got %d diagnostics, want 1: %v", len(ds), ds)
	}
	d := ds[0]
	if d.Subject == nil || d.Subject.Filename != "main.tf" || d.Subject.Start.Line != 8 {
		t.Errorf("subject = %v, want main.tf line 8", d.Subject)
	}
	if want := "terraform_data.b sets create_before_destroy (main.tf:8)"; !strings.Contains(d.Detail, want) {
		t.Errorf("detail does not say %q:\n%s", want, d.Detail)
	}
}
