package command

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// moved blocks end to end: the plan shows the moves as OpenTofu does
// (moved no-ops and "(moved from …)" on changes), the saved plan's JSON
// names previous_address, applying records the objects at their new
// addresses, and the next plan (rig's, and Terraform's when installed)
// has nothing to do.
func TestMovedBlocks(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "old" {
  input = "x"
}
module "m" {
  source = "./m"
  count  = 1
}
`, "m/main.tf": `resource "terraform_data" "a" {}
`})
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s", r.code, r.stderr)
	}
	writeFile(t, dir, "main.tf", `resource "terraform_data" "new" {
  input = "x"
}
module "renamed" {
  source = "./m"
  count  = 1
}
moved {
  from = terraform_data.old
  to   = terraform_data.new
}
moved {
  from = module.m
  to   = module.renamed
}
`)
	r := rig(t, dir, "plan", "-no-color", "-out=moves.plan")
	if r.code != 0 {
		t.Fatalf("plan: exit %d\n%s", r.code, r.stderr)
	}
	checkContains(t, "plan", r.stdout,
		"# terraform_data.old has moved to terraform_data.new",
		"# module.m[0].terraform_data.a has moved to module.renamed[0].terraform_data.a",
		"Plan: 0 to add, 0 to change, 0 to destroy.",
	)
	r = rig(t, dir, "show", "-json", "moves.plan")
	var pj struct {
		ResourceChanges []struct {
			Address         string `json:"address"`
			PreviousAddress string `json:"previous_address"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &pj); err != nil {
		t.Fatalf("show -json: %v\n%s", err, r.stdout)
	}
	var prev []string
	for _, rc := range pj.ResourceChanges {
		prev = append(prev, rc.PreviousAddress+" -> "+rc.Address)
	}
	if want := "terraform_data.old -> terraform_data.new"; !slices.Contains(prev, want) {
		t.Errorf("previous addresses %v lack %s", prev, want)
	}
	if r = rig(t, dir, "apply", "-no-color", "moves.plan"); r.code != 0 {
		t.Fatalf("apply of the moves: exit %d\n%s", r.code, r.stderr)
	}
	got := stateAddresses(t, dir)
	if want := []string{"terraform_data.new", "module.renamed[0].terraform_data.a"}; !slices.Equal(got, want) {
		t.Fatalf("state after the moves: %v, want %v", got, want)
	}
	if r = rig(t, dir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Fatalf("plan after the moves: exit %d\n%s", r.code, r.stdout)
	}
	if tf, err := exec.LookPath("terraform"); err == nil {
		for _, args := range [][]string{{"init", "-no-color", "-input=false"}, {"plan", "-no-color", "-detailed-exitcode", "-lock=false", "-input=false"}} {
			cmd := exec.Command(tf, args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("terraform %s after rig's moves: %v\n%s", args[0], err, out)
			}
		}
	}
}

// A removed block with destroy = false forgets the object: the plan says
// it will no longer be managed, applying drops it from state without a
// delete, and Terraform (when installed) plans nothing for the state left.
func TestRemovedBlockForgets(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\nresource \"terraform_data\" \"b\" {}\n"})
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s", r.code, r.stdout)
	}
	writeFile(t, dir, "main.tf", "resource \"terraform_data\" \"b\" {}\nremoved {\n  from = terraform_data.a\n  lifecycle {\n    destroy = false\n  }\n}\n")
	r := rig(t, dir, "plan", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "# terraform_data.a will no longer be managed by rig, but will not be destroyed") ||
		!strings.Contains(r.stdout, "Plan: 0 to add, 0 to change, 0 to destroy, 1 to forget.") ||
		!strings.Contains(r.stdout, "Warning: Resource will be removed from the state") {
		t.Fatalf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "apply", "-auto-approve", "-no-color")
	if r.code != 0 || strings.Contains(r.stdout, "Destroying") || !strings.Contains(r.stdout, "0 destroyed, 1 forgotten.") {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := stateAddresses(t, dir); !slices.Equal(got, []string{"terraform_data.b"}) {
		t.Fatalf("state after forgetting: %v", got)
	}
	if r = rig(t, dir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Fatalf("plan after forgetting: exit %d\n%s", r.code, r.stdout)
	}
	if tf, err := exec.LookPath("terraform"); err == nil {
		for _, args := range [][]string{{"init", "-no-color", "-input=false"}, {"plan", "-no-color", "-detailed-exitcode", "-lock=false", "-input=false"}} {
			cmd := exec.Command(tf, args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("terraform %s after rig forgot an object: %v\n%s", args[0], err, out)
			}
		}
	}
}

// import blocks: the plan imports the objects and shows them as Terraform
// and OpenTofu do ("will be imported", "(imported from …)", "Plan: 2 to
// import, …"), applying records them, and the next plan has nothing to
// do; a target without configuration and a second block for one target
// are errors.
func TestImportBlocks(t *testing.T) {
	cfg := `resource "terraform_data" "a" {}
resource "terraform_data" "b" {
  input = "hello"
}
import {
  to = terraform_data.a
  id = "abc"
}
import {
  for_each = toset(["x"])
  to       = terraform_data.b
  id       = "id-${each.key}"
}
`
	dir := workDir(t, map[string]string{"main.tf": cfg})
	r := rig(t, dir, "plan", "-no-color")
	for _, want := range []string{"# terraform_data.a will be imported", `# (imported from "id-x")`, "Plan: 2 to import, 0 to add, 1 to change, 0 to destroy."} {
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Fatalf("plan lacks %q: exit %d\n%s%s", want, r.code, r.stdout, r.stderr)
		}
	}
	r = rig(t, dir, "apply", "-auto-approve", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "Apply complete! Resources: 2 imported, 0 added, 1 changed, 0 destroyed.") {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := stateAddresses(t, dir); !slices.Equal(got, []string{"terraform_data.a", "terraform_data.b"}) {
		t.Fatalf("state after the imports: %v", got)
	}
	if r = rig(t, dir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Fatalf("plan after the imports (the blocks stay): exit %d\n%s", r.code, r.stdout)
	}

	bad := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}
import {
  to = terraform_data.missing
  id = "x"
}
import {
  to = terraform_data.a
  id = "1"
}
import {
  to = terraform_data.a
  id = "2"
}
`})
	r = rig(t, bad, "plan", "-no-color")
	for _, want := range []string{"Configuration for import target does not exist", "Duplicate import configuration"} {
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("plan with bad import blocks lacks %q: exit %d\n%s", want, r.code, r.stderr)
		}
	}
}

// An import block's provider argument must name the provider
// configuration the target's own provider argument names, as in OpenTofu
// and Terraform.
func TestImportBlockProvider(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `provider "terraform" {
  alias = "other"
}
resource "terraform_data" "a" {
  provider = terraform
}
import {
  to       = terraform_data.a
  id       = "x"
  provider = terraform
}
`})
	if r := rig(t, dir, "plan", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, "will be imported") {
		t.Fatalf("plan with the resource's own provider: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	writeFile(t, dir, "main.tf", strings.Replace(readFile(t, dir, "main.tf"), "provider = terraform\n", "provider = terraform.other\n", 1))
	if r := rig(t, dir, "plan", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, "Invalid import provider argument") {
		t.Fatalf("plan with another provider: exit %d\n%s", r.code, r.stderr)
	}
}
