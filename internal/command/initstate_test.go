package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInitInstallsProvidersOnlyInState: init installs, as OpenTofu does,
// the providers of objects the state records whose resource blocks were
// removed, so that in a working directory initialized afresh (a clean
// checkout) the plan can destroy them; a state naming a provider of the
// legacy "-" namespace (as Terraform 0.12 recorded it, or OpenTofu after
// upgrading such a state) fails init, with -backend=false too, as in
// OpenTofu.
func TestInitInstallsProvidersOnlyInState(t *testing.T) {
	mirror := testProviderMirror(t)
	cli := filepath.Join(t.TempDir(), "rig.tfrc")
	writeFile(t, filepath.Dir(cli), filepath.Base(cli), fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	t.Setenv("TF_CLI_CONFIG_FILE", cli)
	dir := workDir(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
resource "test_thing" "a" {
  name = "a"
}
resource "terraform_data" "d" {}
`})
	for _, args := range [][]string{{"init"}, {"apply", "-auto-approve"}} {
		if r := rig(t, dir, append(args, "-no-color")...); r.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", args[0], r.code, r.stdout, r.stderr)
		}
	}
	writeFile(t, dir, "main.tf", "resource \"terraform_data\" \"d\" {}\n")
	for _, name := range []string{".terraform", ".terraform.lock.hcl"} {
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	r := rig(t, dir, "init", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "- Installed rig/test v0.0.1") {
		t.Fatalf("init: exit %d, want rig/test installed\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "plan", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "# test_thing.a will be destroyed") {
		t.Errorf("plan: exit %d, want test_thing.a destroyed\n%s%s", r.code, r.stdout, r.stderr)
	}

	legacy := workDir(t, map[string]string{
		"main.tf": "resource \"terraform_data\" \"d\" {}\n",
		"terraform.tfstate": `{"version": 4, "terraform_version": "0.12.0", "serial": 1, "lineage": "l", "outputs": {}, "resources": [
  {"mode": "managed", "type": "null_resource", "name": "a", "provider": "provider[\"registry.opentofu.org/-/null\"]",
   "instances": [{"schema_version": 0, "attributes": {"id": "1"}}]}]}`,
	})
	for _, args := range [][]string{{"init"}, {"init", "-backend=false"}} {
		if r := rig(t, legacy, append(args, "-no-color")...); r.code != 1 || !strings.Contains(r.stderr, "Error: Invalid legacy provider address") || !strings.Contains(r.stderr, `provider "null"`) {
			t.Errorf("%s with a legacy provider address in state: exit %d, want 1 naming it\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	// As Terraform 0.12 wrote it.
	writeFile(t, legacy, "terraform.tfstate", `{"version": 4, "terraform_version": "0.12.28", "serial": 1, "lineage": "l", "outputs": {}, "resources": [
  {"mode": "managed", "type": "null_resource", "name": "a", "provider": "provider.null",
   "instances": [{"schema_version": 0, "attributes": {"id": "1"}}]}]}`)
	if r := rig(t, legacy, "init", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, "Error: Invalid legacy provider address") {
		t.Errorf("init with a provider as Terraform 0.12 recorded it: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestInitWarnsOfProvidersOfOneType: providers of the hashicorp and
// opentofu namespaces with the same type, both required, get OpenTofu's
// "Potential provider misconfiguration" warning from init, even when they
// cannot be installed.
func TestInitWarnsOfProvidersOfOneType(t *testing.T) {
	cli := filepath.Join(t.TempDir(), "rig.tfrc")
	writeFile(t, filepath.Dir(cli), filepath.Base(cli), fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", t.TempDir()))
	t.Setenv("TF_CLI_CONFIG_FILE", cli)
	dir := workDir(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    foo = { source = "opentofu/foo" }
    bar = { source = "hashicorp/bar" }
  }
}
module "child" {
  source = "./child"
}
`,
		"child/main.tf": `
terraform {
  required_providers {
    other = { source = "hashicorp/bar" }
  }
}
resource "foo_thing" "a" {}
`,
	})
	r := rig(t, dir, "init", "-no-color")
	got := r.stdout + r.stderr
	if r.code != 1 || strings.Count(got, "Warning: Potential provider misconfiguration") != 1 ||
		!strings.Contains(got, "several providers of type foo (hashicorp/foo, opentofu/foo)") {
		t.Errorf("init: exit %d, want one warning about foo\n%s", r.code, got)
	}
}
