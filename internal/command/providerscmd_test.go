package command

import "testing"

// TestProvidersTree prints the providers of each module of the tree, with
// their constraints, and those the state refers to (a blank line between
// each, as OpenTofu and Terraform print them).
func TestProvidersTree(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.0" }
  }
}
resource "terraform_data" "a" {}
module "child" { source = "./child" }
module "other" { source = "./child/grand" }
`,
		"child/main.tf":       "resource \"null_resource\" \"n\" {}\nmodule \"grand\" { source = \"./grand\" }\n",
		"child/grand/main.tf": "terraform {\n  required_providers {\n    local = { version = \">= 2.0\" }\n  }\n}\n",
		"terraform.tfstate": `{"version": 4, "terraform_version": "1.10.0", "serial": 1, "lineage": "l", "outputs": {}, "resources": [
  {"mode": "managed", "type": "terraform_data", "name": "a", "provider": "provider[\"terraform.io/builtin/terraform\"]",
   "instances": [{"schema_version": 0, "attributes": {"id": "x", "input": null, "output": null, "triggers_replace": null}}]},
  {"mode": "managed", "type": "random_pet", "name": "p", "provider": "provider[\"registry.terraform.io/hashicorp/random\"]",
   "instances": [{"schema_version": 0, "attributes": {"id": "x"}}]}]}`,
	})
	r := rig(t, dir, "providers", "-no-color")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("providers: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "providers/tree", r.stdout)
}
