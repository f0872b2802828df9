package command

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTerraformInitModules: rig plans and applies, without rig init, in a
// directory terraform init set up with local modules (its
// .terraform/modules/modules.json), and Terraform then finds nothing to
// change in rig's state.
func TestTerraformInitModules(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `
module "app" {
  source = "./modules/app"
  name   = "web"
}

output "id" {
  value = module.app.id
}
`,
		"modules/app/main.tf": `
variable "name" {}

module "tag" {
  source = "../tag"
  value  = var.name
}

resource "terraform_data" "app" {
  input = module.tag.tagged
}

output "id" {
  value = terraform_data.app.output
}
`,
		"modules/tag/main.tf": `
variable "value" {}

output "tagged" {
  value = "${var.value}-tagged"
}
`,
	})
	terraform := terraformIn(t, dir)
	if r := terraform("init", "-no-color"); r.code != 0 {
		t.Fatalf("terraform init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "modules", "modules.json")); err != nil {
		t.Fatalf("terraform init wrote no module manifest: %v", err)
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 2 {
		t.Fatalf("rig plan: exit %d, want 2 (changes)\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if r := terraform("plan", "-detailed-exitcode", "-no-color"); r.code != 0 {
		t.Errorf("terraform plan on rig's state: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
}
