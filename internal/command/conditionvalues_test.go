package command

import (
	"strings"
	"testing"
)

// conditionValuesConfig has a check that fails at plan, a precondition
// over a sensitive variable and one over values known only after apply.
const conditionValuesConfig = `
variable "secret" {
  default   = "hunter2"
  sensitive = true
}
variable "n" { default = 3 }
resource "terraform_data" "a" { input = var.n }
check "k" {
  assert {
    condition     = var.n == 4 || var.secret == "x"
    error_message = "n is not 4."
  }
}
check "eq" {
  assert {
    condition     = var.n == 4
    error_message = "n differs."
  }
}
check "later" {
  assert {
    condition     = terraform_data.a.output == 3 && terraform_data.a.id != ""
    error_message = "not yet."
  }
}
`

// TestConditionValues checks what a failed or undecided condition shows
// of its references, as OpenTofu shows them: known values, only the type
// of a value known after apply, nothing of a sensitive one; and that an
// apply nobody approves reports the check blocks once, after applying.
// A failed equality shows its two sides as a diff, and warnings of check
// blocks are never consolidated.
func TestConditionValues(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.tf", conditionValuesConfig)
	r := rig(t, dir, "plan", "-no-color", "-input=false")
	for _, want := range []string{
		"    │ var.n is 3\n\nn is not 4.",
		"    │ var.n is 3\n    ├────────────────\n    │ Diff: \n    │     3 -> 4\n\nn differs.",
		"    │ terraform_data.a.id is a string\n    │ terraform_data.a.output is a number\n\nThe condition could not be evaluated",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("plan lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "│ var.secret") || strings.Contains(r.stderr, "hunter2") || strings.Contains(r.stderr, "known only after apply") {
		t.Errorf("plan says too much of a value:\n%s", r.stderr)
	}
	r = rig(t, dir, "plan", "-json", "-input=false")
	if want := `"values":[{"traversal":"var.n","statement":"is 3"}]},"difference":{"before":3,"after":4,`; !strings.Contains(r.stdout, want) {
		t.Errorf("plan -json lacks %s:\n%s", want, r.stdout)
	}

	r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(r.stderr, "Warning: Check block assertion failed"); n != 2 {
		t.Errorf("apply -auto-approve reports the two failed checks %d times, want once each:\n%s", n, r.stderr)
	}
	if strings.Contains(r.stderr, "Check block assertion known after apply") {
		t.Errorf("apply -auto-approve reports the plan's undecided check:\n%s", r.stderr)
	}
}
