package command

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOverrideFilesPlan plans a configuration whose blocks are changed by
// override files (in the root and in a child module), with a .tofu file that
// hides the .tf file of the same name, and outputs of path.cwd (absolute: where rig started, before -chdir),
// path.module and path.root (relative).
func TestOverrideFilesPlan(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `
resource "terraform_data" "a" {
  for_each = toset(["x"])
  input    = "base"
}

module "child" {
  source = "./child"
}

output "cwd_is_absolute" {
  value = startswith(path.cwd, "/")
}

output "cwd" {
  value = path.cwd
}

output "root" {
  value = path.root
}

output "child" {
  value = module.child
}
`,
		"override.tf": `
resource "terraform_data" "a" {
  count = 2
  input = "overridden"
}
`,
		"extra.tf":   `output "extra" { value = "from .tf" }`,
		"extra.tofu": `output "extra" { value = "from .tofu" }`,
		"child/main.tf": `
variable "v" {
  default = "base"
}

output "v" {
  value = var.v
}

output "module" {
  value = path.module
}
`,
		"child/v_override.tf.json": `{"variable": {"v": {"default": "overridden"}}}`,
	})
	if r := rig(t, dir, "validate", "-no-color"); r.code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := rig(t, dir, "plan", "-input=false", "-no-color")
	if r.code != 0 {
		t.Fatalf("plan: exit %d\n%s", r.code, r.stderr)
	}
	// path.cwd is the directory rig starts in (the test's), not the one
	// -chdir names.
	start, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "configfiles/override-plan", strings.ReplaceAll(r.stdout, filepath.ToSlash(start), "STARTDIR"))
	r = rig(t, dir, "apply", "-input=false", "-no-color", "-auto-approve")
	if r.code != 0 {
		t.Fatalf("apply: exit %d\n%s", r.code, r.stderr)
	}
	r = rig(t, dir, "output", "-json", "cwd")
	if want := strconv.Quote(filepath.ToSlash(start)) + "\n"; r.stdout != want {
		t.Errorf("path.cwd at apply = %s, want %s", r.stdout, want)
	}
}

// TestRequiredVersionUnmet fails every command that works with the
// configuration when a module's required_version excludes the OpenTofu
// version rig stands in for.
func TestRequiredVersionUnmet(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf":       "module \"child\" {\n  source = \"./child\"\n}\n",
		"child/main.tf": "terraform {\n  required_version = \"< 1.0\"\n}\n",
	})
	for _, args := range [][]string{{"validate", "-no-color"}, {"plan", "-input=false", "-no-color"}} {
		r := rig(t, dir, args...)
		if r.code != 1 {
			t.Errorf("%s: exit %d, want 1\n%s", args[0], r.code, r.stdout+r.stderr)
		}
		out := r.stdout + r.stderr
		checkContains(t, args[0]+" output", out, "Error: Unsupported OpenTofu Core version", "on child/main.tf line 2", "Module module.child (from ./child) does not support OpenTofu version")
	}
}

// TestRequiredVersionOfNewerTerraform runs a configuration written for a
// Terraform release newer than the version rig stands in for, whose
// language rig accepts, as Terraform and OpenTofu 1.12 run it.
func TestRequiredVersionOfNewerTerraform(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf":       "terraform {\n  required_version = \">= 1.14, < 2.0\"\n}\nmodule \"child\" {\n  source = \"./child\"\n}\n",
		"child/main.tf": "terraform {\n  required_version = \"~> 1.16.0\"\n}\nresource \"terraform_data\" \"a\" {}\n",
	})
	for _, args := range [][]string{{"validate", "-no-color"}, {"plan", "-input=false", "-no-color"}} {
		if r := rig(t, dir, args...); r.code != 0 {
			t.Errorf("%s: exit %d, want 0\n%s", args[0], r.code, r.stdout+r.stderr)
		}
	}
}
