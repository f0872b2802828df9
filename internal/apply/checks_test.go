package apply

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
)

// summaries renders diagnostics one a line as "severity: summary: detail".
func summaries(ds diag.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Severity.String()+": "+d.Summary+": "+d.Detail)
	}
	return out
}

// A check assertion known only after apply is evaluated once its
// resource is created: its failure is a warning and the apply succeeds,
// with the object recorded; one in a child module too.
func TestCheckFailureAtApplyIsWarning(t *testing.T) {
	const src = `-- main.tf --
resource "test_thing" "a" {
  key = "a"
}
check "id" {
  assert {
    condition     = test_thing.a.id == "expected"
    error_message = "The id is ${test_thing.a.id}."
  }
}
module "child" {
  source = "./child"
  id     = test_thing.a.id
}
-- child/main.tf --
variable "id" {}
check "child" {
  assert {
    condition     = var.id == "expected"
    error_message = "The child sees ${var.id}."
  }
}
`
	s := newScenario(t)
	_, planDiags := s.plan(src, plan.NormalMode)
	if planDiags.HasErrors() || len(planDiags) != 2 {
		t.Fatalf("plan diagnostics: %q, want two warnings", summaries(planDiags))
	}
	_, _, ds := s.step(src, plan.NormalMode)
	if ds.HasErrors() {
		t.Fatalf("apply failed: %v", ds.Err())
	}
	got := summaries(ds)
	want := []string{
		"warning: Check block assertion failed: The id is id-1.",
		"warning: Check block assertion failed: The child sees id-1.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("apply diagnostics (-want +got):\n%s", diff)
	}
	if s.state.Object(addrs.ObjectAddr{Instance: thing("a")}) == nil {
		t.Error("test_thing.a not recorded")
	}
}

// An output precondition known only after apply is checked during apply,
// in child modules too: its failure is an error.
func TestOutputPreconditionAtApply(t *testing.T) {
	const src = `-- main.tf --
resource "test_thing" "a" {
  key = "a"
}
module "child" {
  source = "./child"
  id     = test_thing.a.id
}
-- child/main.tf --
variable "id" {}
output "id" {
  value = var.id
  precondition {
    condition     = var.id == "expected"
    error_message = "Unexpected id ${var.id}."
  }
}
`
	s := newScenario(t)
	_, _, ds := s.step(src, plan.NormalMode)
	want := []string{"error: Module output value precondition failed: Unexpected id id-1."}
	if diff := cmp.Diff(want, summaries(ds.Errors())); diff != "" {
		t.Errorf("apply errors (-want +got):\n%s", diff)
	}
}
