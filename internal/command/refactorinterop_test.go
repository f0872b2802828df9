package command

import (
	"strings"
	"testing"
)

// refactorSteps are configurations applied one after the other: a rename
// with a moved block, a removed block that forgets objects
// (destroy = false), and an import block.
var refactorSteps = []struct{ name, config string }{
	{"initial", `
resource "terraform_data" "a" {
  input = "x"
}

resource "terraform_data" "b" {
  count = 2
  input = "b-${count.index}"
}
`},
	{"moved", `
resource "terraform_data" "renamed" {
  input = "x"
}

moved {
  from = terraform_data.a
  to   = terraform_data.renamed
}

resource "terraform_data" "b" {
  count = 2
  input = "b-${count.index}"
}
`},
	{"removed, forgotten", `
resource "terraform_data" "renamed" {
  input = "x"
}

removed {
  from = terraform_data.b
  lifecycle {
    destroy = false
  }
}
`},
	{"imported", `
resource "terraform_data" "renamed" {
  input = "x"
}

import {
  to = terraform_data.c
  id = "id-c"
}

resource "terraform_data" "c" {}
`},
}

// TestRefactoringsLikeTerraform applies each refactoring with rig and
// checks that Terraform then plans no changes, and the other way round:
// Terraform applies them and rig plans no changes.
func TestRefactoringsLikeTerraform(t *testing.T) {
	t.Run("rig applies, terraform plans", func(t *testing.T) {
		dir := workDir(t, map[string]string{"main.tf": refactorSteps[0].config})
		tf := terraformIn(t, dir)
		for _, step := range refactorSteps {
			writeFile(t, dir, "main.tf", step.config)
			mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
			if r := tf("plan", "-detailed-exitcode", "-no-color", "-input=false", "-lock=false"); r.code != 0 || !strings.Contains(r.stdout, "No changes.") {
				t.Fatalf("%s: terraform plan after rig's apply: exit %d, want no changes\n%s%s", step.name, r.code, r.stdout, r.stderr)
			}
		}
		if r := rig(t, dir, "state", "list"); r.stdout != "terraform_data.c\nterraform_data.renamed\n" {
			t.Errorf("state list at the end:\n%s", r.stdout)
		}
	})
	t.Run("terraform applies, rig plans", func(t *testing.T) {
		dir := workDir(t, map[string]string{"main.tf": refactorSteps[0].config})
		tf := terraformIn(t, dir)
		for _, step := range refactorSteps {
			writeFile(t, dir, "main.tf", step.config)
			if r := tf("apply", "-auto-approve", "-no-color", "-input=false"); r.code != 0 {
				t.Fatalf("%s: terraform apply: exit %d\n%s%s", step.name, r.code, r.stdout, r.stderr)
			}
			if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 || !strings.Contains(r.stdout, "No changes.") {
				t.Fatalf("%s: rig plan after terraform's apply: exit %d, want no changes\n%s%s", step.name, r.code, r.stdout, r.stderr)
			}
		}
	})
}
