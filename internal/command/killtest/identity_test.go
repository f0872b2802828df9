//go:build linux

package killtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// namedConfig creates files the configuration names: the provider plans
// each one's identity ({id}) before it is created.
const namedConfig = `
terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
resource "test_file" "named" {
  count   = 4
  id      = "named-${count.index}"
  content = "c-${count.index}"
}
`

// TestKilledNamedCreatesFoundByIdentity kills an apply once its creates
// are under way and the first object exists: every create still under way
// is listed with the identity its provider planned, and rig recover looks
// for each by that identity, imports the object where the provider made
// one and forgets the create where it did not, leaving no object the
// state does not record.
func TestKilledNamedCreatesFoundByIdentity(t *testing.T) {
	e := newKillEnv(t, "")
	commandtest.WriteFile(t, e.dir, "main.tf", namedConfig)
	commandtest.WriteFile(t, e.dir, "rig.hcl", "record_create_intents = true\n")
	// Each create waits up to 3s before making its file and after: the
	// kill lands while they are under way, some made, some not.
	e.env = append(e.env, "RIG_TESTPROVIDER_DELAY_MS=3000")
	intents := filepath.Join(e.dir, ".terraform", "rig-intents.jsonl")

	cmd := exec.Command(e.bin, "-chdir="+e.dir, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=4")
	cmd.Env = e.env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(intents)
		if strings.Count(string(b), `"begin"`) == 4 && len(e.worldObjects()) > 0 {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the creates did not begin in 30s; intents:\n%s", b)
		}
		time.Sleep(2 * time.Millisecond)
	}
	children := childrenOf(cmd.Process.Pid)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	e.checkNoProviderLeft(children)
	made := e.worldObjects()
	e.env = append(e.env, "RIG_TESTPROVIDER_DELAY_MS=2")

	plan := e.mustRun("plan", "-no-color", "-input=false")
	recorded := e.stateObjects(0)
	cutOff := map[string]bool{}
	for i := range 4 {
		id := fmt.Sprintf("named-%d", i)
		if _, ok := recorded[id]; ok {
			continue // reported complete before the kill
		}
		cutOff[id] = true
		want := fmt.Sprintf("  test_file.named[%d] (provider[\"registry.terraform.io/rig/test\"])\n    identity = {\"id\":%q}\n", i, id)
		if !strings.Contains(plan.Stdout+plan.Stderr, want) {
			t.Errorf("the plan after the kill does not list %q:\n%s%s", want, plan.Stdout, plan.Stderr)
		}
	}
	if len(cutOff) == 0 {
		t.Fatalf("every create completed before the kill: nothing was cut off")
	}

	r := e.mustRun("recover", "-json", "-auto-approve")
	var found, forgotten int
	for _, c := range recoverReport(r.Stdout) {
		var i int
		if _, err := fmt.Sscanf(c.Address, "test_file.named[%d]", &i); err != nil {
			t.Fatalf("rig recover reports %s", c.Address)
		}
		id := fmt.Sprintf("named-%d", i)
		delete(cutOff, id)
		_, exists := made[id]
		switch {
		case exists && (c.Status != "found" || len(c.Imports) != 1 || c.Candidates[0].Identity.ID != id):
			t.Errorf("%s: its object %s exists; rig recover says %s, %s", c.Address, id, c.Status, c.Action)
		case !exists && (c.Status != "absent" || !c.Forgets):
			t.Errorf("%s: the provider made no object; rig recover says %s, %s", c.Address, c.Status, c.Action)
		case exists:
			found++
		default:
			forgotten++
		}
	}
	if len(cutOff) > 0 {
		t.Errorf("creates cut off that rig recover does not report: %v\n%s", cutOff, r.Stdout)
	}
	t.Logf("%d creates cut off by the kill: %d objects found by identity and imported, %d creates forgotten (no object made)", found+forgotten, found, forgotten)

	e.mustRun("apply", "-auto-approve", "-no-color", "-input=false")
	if r := e.run("plan", "-detailed-exitcode", "-no-color", "-input=false"); r.Code != 0 {
		t.Fatalf("the plan after recovery did not converge: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	inState, world := e.stateObjects(1), e.worldObjects()
	if len(inState) != 4 || len(world) != 4 {
		t.Errorf("after recovery: %d objects in the state, %d in the world, want 4 and 4", len(inState), len(world))
	}
	for id, content := range world {
		if inState[id] != content {
			t.Errorf("%s holds %q in the world, %q in the state", id, content, inState[id])
		}
	}
}
