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
	checkContains(t, "plan", r.stdout,
		"    │ var.n is 3\n\nn is not 4.",
		"    │ var.n is 3\n    ├────────────────\n    │ Diff: \n    │     3 -> 4\n\nn differs.",
		"    │ terraform_data.a.id is a string\n    │ terraform_data.a.output is a number\n\nThe condition could not be evaluated",
	)
	if strings.Contains(r.stdout, "│ var.secret") || strings.Contains(r.stdout, "hunter2") || strings.Contains(r.stdout, "known only after apply") {
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
	if n := strings.Count(r.stdout, "Warning: Check block assertion failed"); n != 2 {
		t.Errorf("apply -auto-approve reports the two failed checks %d times, want once each:\n%s", n, r.stderr)
	}
	if strings.Contains(r.stdout, "Check block assertion known after apply") {
		t.Errorf("apply -auto-approve reports the plan's undecided check:\n%s", r.stderr)
	}
}

// TestCheckOnlyPlan checks a plan whose only content is a check's result,
// rendered as OpenTofu renders it: "No changes." and the failed check,
// saved with -out without telling how to apply it, and applied with the
// check reported again.
func TestCheckOnlyPlan(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.tf", `
variable "n" { default = 3 }
check "k" {
  assert {
    condition     = var.n == 4
    error_message = "n is not 4."
  }
}
`)
	r := rig(t, dir, "plan", "-no-color", "-input=false", "-detailed-exitcode", "-out=p.tfplan")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "\nNo changes. Your infrastructure matches the configuration.\n") ||
		strings.Contains(r.stdout, "Saved the plan") || strings.Contains(r.stdout, "-out option") ||
		!strings.Contains(r.stdout, "Warning: Check block assertion failed") {
		t.Errorf("plan: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "apply", "-no-color", "-input=false", "p.tfplan")
	if r.code != 0 || !strings.Contains(r.stdout, "Apply complete! Resources: 0 added, 0 changed, 0 destroyed.") ||
		strings.Count(r.stdout, "Warning: Check block assertion failed") != 1 {
		t.Errorf("apply p.tfplan: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}
