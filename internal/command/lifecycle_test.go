package command

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readQuickstart(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "quickstart", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// TestQuickstartLifecycle runs the quickstart through its whole life as a
// user would: init, plan, apply, a no-op plan, an update, a create-first
// replacement, and destroy, checking output, exit codes and the state
// written at every step.
func TestQuickstartLifecycle(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": readQuickstart(t)})

	if r := rig(t, dir, "init", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, "rig has been successfully initialized!") {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := rig(t, dir, "plan", "-no-color", "-input=false")
	if r.code != 0 {
		t.Fatalf("plan: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "quickstart/plan", r.stdout)

	r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-parallelism=1")
	if r.code != 0 {
		t.Fatalf("apply: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "quickstart/apply", r.stdout)
	sf, _ := readStateFile(t, dir)
	if got := instanceCount(sf); got != 7 {
		t.Fatalf("state has %d instances after apply, want 7", got)
	}
	serial := sf.Serial
	if _, err := os.Stat(filepath.Join(dir, ".terraform.tfstate.lock.info")); err == nil {
		t.Fatal("lock file left behind after apply")
	}

	// Right after apply, nothing to do: exit 0 with -detailed-exitcode.
	r = rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false")
	if r.code != 0 || !strings.Contains(r.stdout, "No changes.") {
		t.Fatalf("plan after apply: exit %d, want 0 with \"No changes.\"\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A no-op apply leaves the state file as it was, serial included.
	_, before := readStateFile(t, dir)
	if r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("no-op apply: exit %d\n%s", r.code, r.stderr)
	}
	if _, after := readStateFile(t, dir); !bytes.Equal(after, before) {
		t.Fatalf("a no-op apply rewrote the state:\n%s", after)
	}

	// Changing one subnet's cidr (an input) updates that subnet in place; its
	// output is unknown until apply, so the server in that subnet and the load
	// balancer are updated too, as OpenTofu plans it. With -detailed-exitcode
	// the plan exits 2.
	zones := `-var=zones={a = "10.0.1.0/24", b = "10.0.9.0/24"}`
	r = rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false", zones)
	if r.code != 2 {
		t.Fatalf("plan with changes: exit %d, want 2\n%s", r.code, r.stderr)
	}
	golden(t, "quickstart/plan-update", r.stdout)
	r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", zones)
	if r.code != 0 || !strings.Contains(r.stdout, `terraform_data.subnet["b"]: Modifying...`) || !strings.Contains(r.stdout, "0 added, 3 changed, 0 destroyed") {
		t.Fatalf("update apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	sf, _ = readStateFile(t, dir)
	if sf.Serial <= serial {
		t.Fatalf("serial did not increase: %d after %d", sf.Serial, serial)
	}
	serial = sf.Serial

	// A new image replaces the servers create-first (create_before_destroy),
	// and the load balancer is updated before the old servers go.
	r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-parallelism=1", zones, "-var=image_version=2.0.0")
	if r.code != 0 {
		t.Fatalf("replace apply: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "quickstart/apply-replace", r.stdout)
	for i := range 3 {
		addr := "terraform_data.server[" + string(rune('0'+i)) + "]"
		created := strings.Index(r.stdout, addr+": Creation complete")
		destroyed := strings.Index(r.stdout, addr+" (deposed object")
		if created < 0 || destroyed < 0 || created > destroyed {
			t.Errorf("%s: new object must be created (at %d) before the deposed one is destroyed (at %d)", addr, created, destroyed)
		}
	}
	lbUpdated := strings.Index(r.stdout, "terraform_data.load_balancer: Modifications complete")
	firstDestroy := strings.Index(r.stdout, "(deposed object")
	if lbUpdated < 0 || lbUpdated > firstDestroy {
		t.Errorf("load balancer must be updated (at %d) before any old server is destroyed (at %d)", lbUpdated, firstDestroy)
	}
	sf, _ = readStateFile(t, dir)
	if sf.Serial <= serial || instanceCount(sf) != 7 {
		t.Fatalf("after replacement: serial %d (was %d), %d instances (want 7, no deposed left)", sf.Serial, serial, instanceCount(sf))
	}
	for _, res := range sf.Resources {
		cbd := res.Name == "server" || res.Name == "subnet" || res.Name == "network"
		for _, inst := range res.Instances {
			if inst.CreateBeforeDestroy != cbd {
				t.Errorf("%s: create_before_destroy = %v, want %v (own or inherited)", res.Name, inst.CreateBeforeDestroy, cbd)
			}
		}
	}
	serial = sf.Serial

	r = rig(t, dir, "destroy", "-auto-approve", "-no-color", "-input=false", zones, "-var=image_version=2.0.0")
	if r.code != 0 || !strings.Contains(r.stdout, "Destroy complete! Resources: 7 destroyed.") {
		t.Fatalf("destroy: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	sf, _ = readStateFile(t, dir)
	if instanceCount(sf) != 0 || len(sf.Outputs) != 0 || sf.Serial <= serial {
		t.Fatalf("after destroy: %d instances, %d outputs, serial %d (was %d)", instanceCount(sf), len(sf.Outputs), sf.Serial, serial)
	}
}

const simpleConfig = `
variable "value" { default = "one" }
variable "trigger" { default = "t1" }

resource "terraform_data" "a" {
  input            = var.value
  triggers_replace = var.trigger
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}
`

// TestUpdateAndReplace checks that editing input updates in place and
// editing triggers_replace replaces delete-first.
func TestUpdateAndReplace(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("apply: %s", r.stderr)
	}
	r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=value=two")
	if r.code != 0 {
		t.Fatalf("update: %s", r.stderr)
	}
	golden(t, "simple/update", r.stdout)

	r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=value=two", "-var=trigger=t2")
	if r.code != 0 {
		t.Fatalf("replace: %s", r.stderr)
	}
	golden(t, "simple/replace", r.stdout)
	destroying := strings.Index(r.stdout, "terraform_data.a: Destroying...")
	creating := strings.Index(r.stdout, "terraform_data.a: Creating...")
	if destroying < 0 || creating < 0 || destroying > creating {
		t.Fatalf("replacement must destroy (at %d) before it creates (at %d)", destroying, creating)
	}
	if !strings.Contains(r.stdout, "Resources: 1 added, 1 changed, 1 destroyed.") {
		t.Fatalf("summary missing:\n%s", r.stdout)
	}
}

// TestSettingsFileAndLimitFlag checks rig.hcl and -limit: valid settings
// are accepted (the apply works), bad ones are diagnostics with file and line.
func TestSettingsFileAndLimitFlag(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": simpleConfig,
		"rig.hcl": "parallelism = 4\nlimits = {\n  terraform_data = 1\n  \"terraform_data.a\" = 1\n}\n",
	})
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-limit=terraform=2"); r.code != 0 {
		t.Fatalf("apply with settings: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "plan", "-no-color", "-limit=terraform"); r.code != 1 || !strings.Contains(r.stderr, "want NAME=N") {
		t.Fatalf("bad -limit: exit %d\n%s", r.code, r.stderr)
	}
	writeFile(t, dir, "rig.hcl", "parallelism = 4\nlimits = {\n  terraform_data = 0\n}\n")
	if r := rig(t, dir, "plan", "-no-color", "-input=false"); r.code != 1 || !strings.Contains(r.stderr, "on rig.hcl line 2") || !strings.Contains(r.stderr, "Invalid limits") {
		t.Fatalf("bad rig.hcl: exit %d\n%s", r.code, r.stderr)
	}
}

// TestVariableSources checks the precedence of variable values: TF_VAR_
// environment variables, terraform.tfvars, *.auto.tfvars, then -var-file
// and -var in command-line order.
func TestVariableSources(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `
variable "a" {}
variable "b" {}
variable "c" {}
variable "d" {}
variable "list" { type = list(string) }
output "all" { value = "${var.a}/${var.b}/${var.c}/${var.d}/${join(",", var.list)}" }
`,
		"terraform.tfvars":   "a = \"tfvars\"\nb = \"tfvars\"\nc = \"tfvars\"\n",
		"x.auto.tfvars":      "b = \"auto\"\n",
		"extra.tfvars":       "c = \"file\"\nd = \"file\"\n",
		"terraform.tfvars.x": "ignored",
	})
	t.Setenv("TF_VAR_a", "env")
	t.Setenv("TF_VAR_list", `["x", "y"]`)
	r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var-file=extra.tfvars", "-var=d=flag")
	if r.code != 0 {
		t.Fatalf("apply: %s", r.stderr)
	}
	if r := rig(t, dir, "output", "-raw", "all"); r.stdout != "tfvars/auto/file/flag/x,y" {
		t.Fatalf("output = %q, want tfvars/auto/file/flag/x,y", r.stdout)
	}
	if r := rig(t, dir, "plan", "-no-color", "-input=false", "-var-file=extra.tfvars", "-var=nope=1"); r.code != 1 || !strings.Contains(r.stderr, "Value for undeclared variable") {
		t.Fatalf("undeclared -var: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "plan", "-no-color", "-input=false", "-var-file=missing.tfvars"); r.code != 1 || !strings.Contains(r.stderr, "Failed to read variables file") {
		t.Fatalf("missing -var-file: exit %d\n%s", r.code, r.stderr)
	}
}
