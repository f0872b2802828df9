package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const providerForEachConfig = `
variable "envs" {
  default = ["dev", "prod"]
}

provider "terraform" {
  alias    = "env"
  for_each = toset(var.envs)
}

resource "terraform_data" "app" {
  for_each = { api = "dev", web = "prod" }
  provider = terraform.env[each.value]
  input    = "${each.key}@${each.value}"
}

module "site" {
  source    = "./site"
  for_each  = toset(["dev"])
  providers = { terraform = terraform.env[each.key] }
}
`

// TestProviderForEachCLI plans and applies a configuration with a provider
// configuration per environment, checks the plan against a golden file and
// the state's per-instance provider addresses, then removes an environment
// that still has objects: the plan fails with "Provider instance not
// present".
func TestProviderForEachCLI(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf":      providerForEachConfig,
		"site/main.tf": "resource \"terraform_data\" \"page\" {\n  input = \"page\"\n}\n",
	})
	if r := rig(t, dir, "validate", "-no-color"); r.code != 0 {
		t.Fatalf("validate: exit %d\n%s", r.code, r.stderr)
	}
	r := rig(t, dir, "plan", "-input=false", "-no-color")
	if r.code != 0 {
		t.Fatalf("plan: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "providerforeach/plan", r.stdout)
	if r := rig(t, dir, "apply", "-input=false", "-no-color", "-auto-approve"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s", r.code, r.stderr)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	checkContains(t, "state", string(raw),
		`"provider": "provider[\"terraform.io/builtin/terraform\"].env[\"dev\"]"`,
		`"provider": "provider[\"terraform.io/builtin/terraform\"].env[\"prod\"]"`,
	)
	if r := rig(t, dir, "plan", "-input=false", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("second plan: exit %d, want 0 (no changes)\n%s%s", r.code, r.stdout, r.stderr)
	}

	writeFile(t, dir, "main.tf", strings.Replace(providerForEachConfig, `["dev", "prod"]`, `["dev"]`, 1))
	r = rig(t, dir, "plan", "-input=false", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Provider instance not present") ||
		!strings.Contains(r.stderr, `original provider instance at`) {
		t.Errorf("plan without the prod instance: exit %d, want 1 and \"Provider instance not present\"\n%s", r.code, r.stderr)
	}
}

// TestProviderForEachValidate: validate reports a provider for_each that
// refers to something a static evaluation cannot have.
func TestProviderForEachValidate(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
resource "terraform_data" "names" {
  input = ["a"]
}
locals {
  names = toset(terraform_data.names.output)
}
provider "terraform" {
  alias    = "x"
  for_each = local.names
}
`})
	r := rig(t, dir, "validate", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Dynamic value in static context") ||
		!strings.Contains(r.stderr, "Unable to use terraform_data.names in static context") ||
		!strings.Contains(r.stderr, "Error: Unable to compute static value") ||
		!strings.Contains(r.stderr, "provider.terraform.x.for_each depends on local.names") {
		t.Errorf("validate: exit %d, want the static context errors\n%s", r.code, r.stderr)
	}
}

// TestProviderForEachDataSource reads a data source per instance through
// the provider instance each selects.
func TestProviderForEachDataSource(t *testing.T) {
	const other = `{"version":4,"terraform_version":"1.10.6","serial":1,"lineage":"3f0c2b1e-0000-4000-8000-000000000001","outputs":{"name":{"value":"NAME","type":"string"}},"resources":[],"check_results":null}`
	dir := workDir(t, map[string]string{
		"a.tfstate": strings.Replace(other, "NAME", "alpha", 1),
		"b.tfstate": strings.Replace(other, "NAME", "beta", 1),
		"main.tf": `
provider "terraform" {
  alias    = "env"
  for_each = toset(["a", "b"])
}
data "terraform_remote_state" "s" {
  for_each = toset(["a", "b"])
  provider = terraform.env[each.key]
  backend  = "local"
  config   = { path = "${each.key}.tfstate" }
}
output "names" {
  value = [for k in ["a", "b"] : data.terraform_remote_state.s[k].outputs.name]
}
`})
	if r := rig(t, dir, "apply", "-input=false", "-no-color", "-auto-approve"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s", r.code, r.stderr)
	}
	r := rig(t, dir, "output", "-json", "names")
	if strings.TrimSpace(r.stdout) != `["alpha","beta"]` {
		t.Errorf("names = %s, want [\"alpha\",\"beta\"]", r.stdout)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"provider": "provider[\"terraform.io/builtin/terraform\"].env[\"b\"]"`) {
		t.Errorf("the data source's instances do not record their provider instances:\n%s", raw)
	}
}
