package command

import (
	"strings"
	"testing"
)

// TestApplySavedPlanWithItsVariables: a pipeline that passes the variables
// it planned with to `apply PLANFILE` again works, as in OpenTofu 1.12 and
// Terraform; a different value is refused and nothing is applied.
func TestApplySavedPlanWithItsVariables(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `
variable "name" {
  type = string
}
variable "zones" {
  type    = list(string)
  default = ["a"]
}
resource "terraform_data" "a" {
  input = "${var.name}-${join(",", var.zones)}"
}
output "o" { value = terraform_data.a.output }
`,
		"prod.tfvars": `zones = ["a", "b"]` + "\n",
	})
	mustRig(t, dir, "plan", "-no-color", "-var", "name=web", "-var-file=prod.tfvars", "-out=p.plan")
	r := rig(t, dir, "apply", "-no-color", "-var", "name=web", "-var-file=prod.tfvars", "p.plan")
	if r.code != 0 || !strings.Contains(r.stdout, `o = "web-a,b"`) {
		t.Fatalf("apply PLANFILE with the plan's variables: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	mustRig(t, dir, "plan", "-no-color", "-var", "name=api", "-out=p.plan")
	for _, args := range [][]string{
		{"-var", "name=web"},
		{"-var", "name=api", "-var-file=prod.tfvars"},
	} {
		r = rig(t, dir, append(append([]string{"apply", "-no-color"}, args...), "p.plan")...)
		if r.code != 1 || !strings.Contains(r.stderr, "Error: Mismatch between input and plan variable value") ||
			!strings.Contains(oneLine(r.stderr), "Value saved in the plan file for variable") {
			t.Errorf("apply %v PLANFILE with another value: exit %d, want 1 and the mismatch\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := rig(t, dir, "output", "-raw", "o"); r.stdout != "web-a,b" {
		t.Errorf("after the refused applies the output is %q, want web-a,b", r.stdout)
	}
}
