package command

import (
	"os"
	"strings"
	"testing"
)

// TestVariablesFromEnvironmentInPipelines: TF_VAR_ variables set for many
// configurations at once are ignored where undeclared, values of the
// wrong type say where they were set, and a variables file's undeclared
// values are warned about by file name, as OpenTofu reports them.
func TestVariablesFromEnvironmentInPipelines(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `
variable "n" {
  type    = number
  default = 1
}
output "n" { value = var.n }
`,
		"terraform.tfvars": "region = \"x\"\n",
	})
	t.Setenv("TF_VAR_unrelated", "set for another configuration")
	r := rig(t, dir, "plan", "-no-color")
	if r.code != 0 || strings.Contains(r.stdout, `"unrelated"`) {
		t.Fatalf("plan with an undeclared TF_VAR_: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, "plan's warning", r.stdout, "Warning: Value for undeclared variable",
		`The root module does not declare a variable named "region" but a value was
found in file "terraform.tfvars".`)
	t.Setenv("TF_VAR_n", "many")
	r = rig(t, dir, "plan", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Unsuitable value for var.n set using the TF_VAR_n environment variable: a\nnumber is required.") {
		t.Fatalf("plan with a TF_VAR_ of the wrong type: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	os.Unsetenv("TF_VAR_n") // t.Setenv restores it at the end
	r = rig(t, dir, "plan", "-no-color", "-var", "n")
	if r.code != 1 || !strings.Contains(r.stderr, `The given -var option "n" is not correctly specified. Must be a variable`) {
		t.Fatalf("plan -var without =: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
