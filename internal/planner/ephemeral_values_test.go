package planner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
)

// TestEphemeralRecordedValues gives the ephemeral resources, outside a
// run (the console), the value OpenTofu gives them: a known object of
// unknown attributes marked ephemeral, wholly unknown with count, and
// opens none of them.
func TestEphemeralRecordedValues(t *testing.T) {
	cfg := loadConfig(t, `
ephemeral "test_token" "one" { name = "one" }
ephemeral "test_token" "many" {
  count = 2
  name  = "many"
}
`)
	live := providertest.New()
	set := provider.NewSet(provider.Factories{providertest.Address(): live.Factory()})
	defer set.Close()
	rv := planner.StateValues(context.Background(), cfg, state.New(), set)
	res := func(name string) addrs.AbsResource {
		return addrs.Resource{Mode: addrs.Ephemeral, Type: "test_token", Name: name}.Absolute(addrs.RootModule)
	}
	one := rv.ResourceValue(res("one"))
	for _, tc := range []struct {
		what, got, want string
	}{
		{"the resource", ui.FormatValue(one, 0), "(ephemeral value)"},
		{"an attribute", ui.FormatValue(one.GetAttr("secret"), 0), "(known after apply)"},
		{"a resource with count", ui.FormatValue(rv.ResourceValue(res("many")), 0), "(known after apply)"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %s, want %s", tc.what, tc.got, tc.want)
		}
	}
	if calls := live.Ephemerals(); len(calls) > 0 {
		t.Errorf("opened outside a run: %v", calls)
	}
}

// TestEphemeralConditionResults records the results of an ephemeral
// resource's conditions among the plan's checks, per instance, with the
// failure's message, as OpenTofu records them.
func TestEphemeralConditionResults(t *testing.T) {
	cfg := loadConfig(t, `
variable "want" {
  type    = string
  default = "token-a"
}
ephemeral "test_token" "t" {
  for_each = toset(["a", "b"])
  name     = each.key
  lifecycle {
    precondition {
      condition     = var.want != ""
      error_message = "No wanted token."
    }
    postcondition {
      condition     = self.secret == var.want
      error_message = "Not the wanted token."
    }
  }
}
`)
	live := providertest.New()
	set := provider.NewSet(provider.Factories{providertest.Address(): live.Factory()})
	defer set.Close()
	p, ds := planner.Make(context.Background(), cfg, state.New(), set, planner.Options{})
	if !hasSummary(ds, "Resource postcondition failed") {
		t.Fatalf("diagnostics %v, want the failed postcondition", ds)
	}
	var got []string
	for _, r := range p.Checks.Results() {
		for _, o := range r.Objects {
			got = append(got, fmt.Sprintf("%s %s %v", o.Object, o.Status, o.Messages))
		}
	}
	want := []string{`ephemeral.test_token.t["a"] pass []`, `ephemeral.test_token.t["b"] fail [Not the wanted token.]`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("check results\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEphemeralRelevantAttributes follows, for the plan's
// relevant_attributes, the references through ephemeral resources to the
// arguments they come from, as OpenTofu does: the attribute of an
// ephemeral resource a change refers to, the argument it is set from, and
// on to the managed resource that argument refers to.
func TestEphemeralRelevantAttributes(t *testing.T) {
	cfg := loadConfig(t, `
resource "test_thing" "source" {
  key   = "source"
  value = "v"
}
ephemeral "test_token" "p" { name = test_thing.source.value }
ephemeral "test_token" "q" { name = ephemeral.test_token.p.name }
resource "test_thing" "user" {
  key   = "user"
  value = coalesce(ephemeralasnull(ephemeral.test_token.q.name), "x")
}
`)
	live := providertest.New()
	set := provider.NewSet(provider.Factories{providertest.Address(): live.Factory()})
	defer set.Close()
	p, ds := planner.Make(context.Background(), cfg, state.New(), set, planner.Options{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	var got []string
	for _, ra := range p.RelevantAttributes {
		got = append(got, fmt.Sprintf("%s %#v", ra.Resource, ra.Path))
	}
	want := []string{
		`ephemeral.test_token.p cty.Path{cty.GetAttrStep{Name:"name"}}`,
		`ephemeral.test_token.q cty.Path{cty.GetAttrStep{Name:"name"}}`,
		`test_thing.source cty.Path{cty.GetAttrStep{Name:"value"}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("relevant attributes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
