package command

import (
	"strings"
	"testing"
)

// TestErroredPlanShown checks that a plan stopped by an error shows what
// it had planned before the error, as OpenTofu shows it: the changes with
// "planned the following actions, but then encountered a problem", or
// "Planning failed." when nothing was to change; in plan and in apply,
// without an order of operations, and in the -json stream, where the
// output whose precondition failed has no planned change.
func TestErroredPlanShown(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.tf", `
variable "n" { default = 3 }
resource "terraform_data" "a" { input = 1 }
output "o" {
  value = 1
  precondition {
    condition     = var.n > 10
    error_message = "n is too small."
  }
}
`)
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var", "n=11")
	r := rig(t, dir, "plan", "-no-color", "-input=false")
	if r.code != 1 || !strings.Contains(r.stdout, "\nPlanning failed. rig encountered an error while generating this plan.\n") ||
		!strings.Contains(r.stderr, "Error: Module output value precondition failed") {
		t.Errorf("plan with nothing to change: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}

	writeFile(t, dir, "b.tf", `resource "terraform_data" "b" { input = 2 }`)
	for _, cmd := range []string{"plan", "apply"} {
		r = rig(t, dir, cmd, "-no-color", "-input=false")
		for _, want := range []string{
			"rig planned the following actions, but then encountered a problem:\n\n  # terraform_data.b will be created",
			"\nPlan: 1 to add, 0 to change, 0 to destroy.\n",
		} {
			if r.code != 1 || !strings.Contains(r.stdout, want) {
				t.Errorf("%s: exit %d, stdout lacks %q:\n%s", cmd, r.code, want, r.stdout)
			}
		}
		if strings.Contains(r.stdout, "Order of operations") || strings.Contains(r.stdout, "Creating...") {
			t.Errorf("%s shows an order or applies:\n%s", cmd, r.stdout)
		}
	}
	r = rig(t, dir, "plan", "-json", "-input=false")
	if !strings.Contains(r.stdout, `"type":"planned_change"`) || !strings.Contains(r.stdout, `"type":"change_summary"`) ||
		strings.Contains(r.stdout, `"outputs":{"o"`) {
		t.Errorf("plan -json lacks the planned change:\n%s", r.stdout)
	}
}
