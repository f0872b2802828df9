package command

import (
	"slices"
	"strings"
	"testing"
)

const stateCmdConfig = `module "svc" {
  source   = "./svc"
  for_each = toset(["a", "b"])
}
resource "terraform_data" "top" {
  count = 2
}
-- svc/main.tf --
resource "terraform_data" "x" {}
resource "terraform_data" "y" {}
`

func stateCmdDir(t *testing.T) string {
	t.Helper()
	main, svc, _ := strings.Cut(stateCmdConfig, "-- svc/main.tf --\n")
	dir := workDir(t, map[string]string{"main.tf": main, "svc/main.tf": svc})
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s", r.code, r.stderr)
	}
	return dir
}

// The state commands as a user runs them: each changes only the state
// (new serial, nothing planned remotely beyond what the change implies).
func TestStateMvRmTaint(t *testing.T) {
	dir := stateCmdDir(t)
	sf, _ := readStateFile(t, dir)
	serial := sf.Serial

	// state mv of a module instance moves everything in it.
	r := rig(t, dir, "state", "mv", "-no-color", "-dry-run", `module.svc["a"]`, `module.svc["c"]`)
	if r.code != 0 || !strings.Contains(r.stdout, `Would move "module.svc[\"a\"]" to "module.svc[\"c\"]"`) {
		t.Fatalf("state mv -dry-run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if sf, _ := readStateFile(t, dir); sf.Serial != serial {
		t.Fatal("-dry-run changed the state")
	}
	r = rig(t, dir, "state", "mv", "-no-color", `module.svc["a"]`, `module.svc["c"]`)
	if r.code != 0 || !strings.Contains(r.stdout, "Successfully moved 2 object(s).") {
		t.Fatalf("state mv: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	got := stateAddresses(t, dir)
	if !slices.Contains(got, `module.svc["c"].terraform_data.x`) || slices.Contains(got, `module.svc["a"].terraform_data.y`) {
		t.Fatalf("state after mv:\n  %s", strings.Join(got, "\n  "))
	}
	// Onto an occupied address: refused.
	r = rig(t, dir, "state", "mv", "-no-color", "terraform_data.top[0]", "terraform_data.top[1]")
	if r.code != 1 || !strings.Contains(strings.Join(strings.Fields(r.stderr), " "), "there is already an object at terraform_data.top[1]") {
		t.Fatalf("state mv onto an existing object: exit %d\n%s", r.code, r.stderr)
	}
	// The configuration still calls svc["a"]: the plan creates it anew
	// and destroys what moved to svc["c"].
	r = rig(t, dir, "plan", "-no-color")
	if !strings.Contains(r.stdout, "Plan: 2 to add, 0 to change, 2 to destroy.") {
		t.Fatalf("plan after mv: exit %d\n%s", r.code, r.stdout)
	}
	if r = rig(t, dir, "state", "mv", "-no-color", `module.svc["c"]`, `module.svc["a"]`); r.code != 0 {
		t.Fatalf("state mv back: exit %d\n%s", r.code, r.stderr)
	}

	// state rm of a whole resource forgets every instance.
	r = rig(t, dir, "state", "rm", "-no-color", "terraform_data.top")
	if r.code != 0 || !strings.Contains(r.stdout, "Removed terraform_data.top[1]") || !strings.Contains(r.stdout, "Successfully removed 2 resource instance(s).") {
		t.Fatalf("state rm: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = rig(t, dir, "state", "rm", "-no-color", "terraform_data.nope"); r.code != 1 || !strings.Contains(r.stderr, "No matching objects found") {
		t.Fatalf("state rm of nothing: exit %d\n%s", r.code, r.stderr)
	}

	// taint makes the next plan replace the instance; untaint undoes it.
	addr := `module.svc["b"].terraform_data.y`
	if r = rig(t, dir, "taint", "-no-color", addr); r.code != 0 || !strings.Contains(r.stdout, "has been marked as tainted") {
		t.Fatalf("taint: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "plan", "-no-color")
	if !strings.Contains(r.stdout, addr+" is tainted, so it must be replaced") {
		t.Fatalf("plan after taint:\n%s", r.stdout)
	}
	if r = rig(t, dir, "untaint", "-no-color", addr); r.code != 0 {
		t.Fatalf("untaint: exit %d\n%s", r.code, r.stderr)
	}
	if r = rig(t, dir, "untaint", "-no-color", addr); r.code != 1 || !strings.Contains(r.stderr, "is not currently tainted") {
		t.Fatalf("untaint twice: exit %d\n%s", r.code, r.stderr)
	}
	if sf, _ := readStateFile(t, dir); sf.Serial <= serial {
		t.Fatalf("serial %d after the changes, want more than %d", sf.Serial, serial)
	}
}

func TestStateReplaceProvider(t *testing.T) {
	dir := stateCmdDir(t)
	r := rigInput(t, dir, "no\n", "state", "replace-provider", "terraform.io/builtin/terraform", "example.com/acme/terraform")
	if r.code != 0 || !strings.Contains(r.stdout, "Changing 5 resources:") || !strings.Contains(r.stdout, "Cancelled") {
		t.Fatalf("replace-provider answered no: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "state", "replace-provider", "-auto-approve", "terraform.io/builtin/terraform", "example.com/acme/terraform")
	if r.code != 0 || !strings.Contains(r.stdout, "Successfully replaced provider for 5 resources.") {
		t.Fatalf("replace-provider: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	sf, _ := readStateFile(t, dir)
	for _, res := range sf.Resources {
		if res.Provider != `provider["example.com/acme/terraform"]` {
			t.Errorf("%s.%s provider %s", res.Type, res.Name, res.Provider)
		}
	}
}

// The state commands work on the pg backend too, under its lock.
func TestStateCommandsOnPG(t *testing.T) {
	p := newPGTarget(t)
	dir := workDir(t, map[string]string{"main.tf": "terraform {\n  backend \"pg\" {}\n}\n" + simpleConfig})
	mustRig(t, dir, "init", "-no-color", "-backend-config=conn_str="+p.conn, "-backend-config=schema_name="+p.schema)
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	before := p.state(t, "default")
	list := mustRig(t, dir, "state", "list")
	first := strings.Fields(list.stdout)[0]
	mustRig(t, dir, "taint", "-no-color", first)
	mustRig(t, dir, "state", "rm", "-no-color", first)
	after := p.state(t, "default")
	if instanceCount(after) != instanceCount(before)-1 || after.Serial <= before.Serial {
		t.Fatalf("pg state after taint and rm: %d instances (was %d), serial %d (was %d)", instanceCount(after), instanceCount(before), after.Serial, before.Serial)
	}
}
