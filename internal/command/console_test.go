package command

import (
	"testing"
)

// TestConsole evaluates expressions against variables, locals, module
// outputs and resources in the state, one a line, and goes on after an
// error.
func TestConsole(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `
variable "name" {
  default = "web"
}
variable "password" {
  default   = "hunter2"
  sensitive = true
}
variable "zones" {
  type = list(string)
}
locals {
  obj = { a = 1, b = [true, null], "c d" = { e = "f" } }
  text = "line one\nline two"
}
resource "terraform_data" "server" {
  count = 2
  input = "${var.name}-${count.index}"
}
module "net" {
  source = "./net"
  cidr   = "10.0.0.0/16"
}
output "first" {
  value = terraform_data.server[0].output
}
`,
		"net/main.tf": `
variable "cidr" {}
output "subnet" {
  value = cidrsubnet(var.cidr, 8, 1)
}
`,
	})
	if r := rig(t, dir, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %s%s", r.stdout, r.stderr)
	}
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-var", "zones=[\"a\"]"); r.code != 0 {
		t.Fatalf("apply: %s%s", r.stdout, r.stderr)
	}
	input := `var.name
var.zones
var.password
local.obj
local.text
type(local.obj)
type(tolist([{a = 1}]))
terraform_data.server[1].output
length(terraform_data.server)
module.net.subnet
1 +
terraform_data.nosuch.id

upper(var.name)
[for z in var.zones : "${z}!"]
tomap({ a = 1 })
toset(["x"])
null
terraform.workspace
exit
"not evaluated"
`
	r := rigInput(t, dir, input, "console", "-no-color", "-var", "zones=[\"a\", \"b\"]")
	if r.code != 0 {
		t.Errorf("console: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "console/stdout", r.stdout)
	golden(t, "console/stderr", r.stderr)
}

func TestConsoleWithoutState(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "variable \"x\" {}\nlocals {\n  y = 2\n}\n"})
	r := rigInput(t, dir, "local.y * 3\nvar.x\n", "console", "-no-color")
	if r.code != 0 || r.stdout != "6\n(known after apply)\n" || r.stderr != "" {
		t.Errorf("console: exit %d\nstdout: %q\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}
