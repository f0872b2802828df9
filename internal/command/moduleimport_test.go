package command

import (
	"strings"
	"testing"
)

// Import blocks in child modules (Terraform 1.16): evaluated in every
// instance of their module, relative to it; a root import block of the
// same resource wins over the module's.
func TestImportBlocksInChildModules(t *testing.T) {
	world := pluginWorld(t)
	for _, f := range []string{"id-a", "id-b", "id-root"} {
		writeFile(t, world, f, "content of "+f)
	}
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
module "svc" {
  for_each = toset(["a", "b"])
  source   = "./svc"
  name     = each.key
}
module "other" {
  source = "./svc"
  name   = "root"
}
import {
  to = module.other.test_file.f
  id = "id-root"
}
`, "svc/main.tf": `
terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
variable "name" {
  type = string
}
resource "test_file" "f" {
  content = "content of id-${var.name}"
}
import {
  to = test_file.f
  id = "id-${var.name}"
}
`})
	mustRig(t, dir, "init", "-no-color")
	r := mustRig(t, dir, "plan", "-no-color")
	checkContains(t, "plan", r.stdout,
		`module.svc["a"].test_file.f: Preparing import... [id=id-a]`,
		`module.svc["b"].test_file.f: Preparing import... [id=id-b]`,
		`module.other.test_file.f: Preparing import... [id=id-root]`,
		`# module.svc["a"].test_file.f will be imported`,
		"Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.",
	)
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if r := mustRig(t, dir, "state", "list"); r.stdout != "module.other.test_file.f\nmodule.svc[\"a\"].test_file.f\nmodule.svc[\"b\"].test_file.f\n" {
		t.Errorf("state list:\n%s", r.stdout)
	}
	if r := mustRig(t, dir, "plan", "-no-color"); !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("plan after the imports:\n%s", r.stdout)
	}

	writeFile(t, dir, "svc/main.tf", testFileProvider+`
variable "name" {
  type = string
}
resource "test_file" "g" {
  content = "x"
}
import {
  to = test_file.nope
  id = "x"
}
`)
	r = rig(t, dir, "plan", "-no-color")
	if r.code == 0 || !strings.Contains(r.stderr, "Configuration for import target does not exist") {
		t.Errorf("plan with a module import of nothing: exit %d\n%s", r.code, r.stderr)
	}
}
