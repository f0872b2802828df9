package command

import (
	"strings"
	"testing"
)

// TestConsoleScope: console -scope evaluates in a module instance, as
// Terraform 1.16's does, against the state or the plan; a module instance
// that does not exist is an error.
func TestConsoleScope(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `
module "a" {
  source = "./mod"
  count  = 2
  x      = "v${count.index}"
}
module "b" {
  source = "./mod"
  x      = "single"
}
`,
		"mod/main.tf": `
variable "x" {}
locals { y = "${var.x}-local" }
resource "terraform_data" "r" { input = var.x }
`,
	})
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := rigInput(t, dir, "local.y\nvar.x\nterraform_data.r.output\n", "console", "-scope=module.a[1]")
	if want := "\"v1-local\"\n\"v1\"\n\"v1\"\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("console -scope=module.a[1]: exit %d\n%q, want %q\n%s", r.code, r.stdout, want, r.stderr)
	}
	r = rigInput(t, dir, "local.y\n", "console", "-plan", "-scope=module.b")
	if r.code != 0 || r.stdout != "\"single-local\"\n" {
		t.Fatalf("console -plan -scope=module.b: exit %d\n%q\n%s", r.code, r.stdout, r.stderr)
	}
	r = rigInput(t, dir, "terraform_data.nosuch.id\n", "console", "-no-color", "-scope=module.b")
	if r.code != 1 || !strings.Contains(strings.Join(strings.Fields(r.stderr), " "), `A managed resource "terraform_data" "nosuch" has not been declared in module.b.`) {
		t.Fatalf("an undeclared resource in module.b: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, scope := range []string{"module.a", "module.a[2]", "module.b[0]", "module.nosuch"} {
		r := rigInput(t, dir, "local.y\n", "console", "-no-color", "-scope="+scope)
		if r.code != 1 || !strings.Contains(r.stderr, "Error: Failed to retrieve evaluation scope") || !strings.Contains(r.stderr, `"`+scope+`"`) {
			t.Errorf("console -scope=%s: exit %d\n%s%s", scope, r.code, r.stdout, r.stderr)
		}
	}
}
