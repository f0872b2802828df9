package apply

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// When one resource's create fails, the apply still records the outputs
// and evaluates the check blocks that do not depend on it (through
// locals and module calls too), as OpenTofu does; an output that depends
// on it keeps the value recorded before, and a check that depends on it
// is not evaluated.
func TestPartlyFailedApplyOutputsAndChecks(t *testing.T) {
	const src = `-- main.tf --
variable "v" { default = "one" }
resource "test_thing" "good" {
  key   = "good"
  value = var.v
}
resource "test_thing" "bad" {
  key   = "bad"
  value = var.v
}
locals {
  good = test_thing.good.value
}
module "child" {
  source = "./child"
  in     = test_thing.bad.value
}
output "good" { value = local.good }
output "bad"  { value = test_thing.bad.value }
output "child" { value = module.child.out }
check "good" {
  assert {
    condition     = local.good == "never"
    error_message = "good is ${local.good}."
  }
}
check "bad" {
  assert {
    condition     = test_thing.bad.value == "never"
    error_message = "bad is ${test_thing.bad.value}."
  }
}
-- child/main.tf --
variable "in" {}
output "out" { value = var.in }
`
	s := newScenario(t)
	s.mustStep(src, plan.NormalMode)
	outputs := func() map[string]string {
		out := map[string]string{}
		for name, o := range s.state.Outputs {
			out[name] = o.Value.AsString()
		}
		return out
	}
	if diff := cmp.Diff(map[string]string{"good": "one", "bad": "one", "child": "one"}, outputs()); diff != "" {
		t.Fatalf("outputs after the first apply (-want +got):\n%s", diff)
	}

	s.prov.FailOn("bad", providertest.Update, 1)
	_, _, ds := s.step(strings.Replace(src, `default = "one"`, `default = "two"`, 1), plan.NormalMode)
	if !ds.HasErrors() {
		t.Fatal("the update of test_thing.bad did not fail")
	}
	if diff := cmp.Diff(map[string]string{"good": "two", "bad": "one", "child": "one"}, outputs()); diff != "" {
		t.Errorf("outputs after the failed apply (-want +got):\n%s", diff)
	}
	var warnings []string
	for _, d := range ds {
		if d.Severity.String() == "warning" {
			warnings = append(warnings, d.Summary+": "+d.Detail)
		}
	}
	if diff := cmp.Diff([]string{"Check block assertion failed: good is two."}, warnings); diff != "" {
		t.Errorf("warnings of the failed apply (-want +got):\n%s", diff)
	}
}
