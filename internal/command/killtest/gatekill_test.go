//go:build linux

package killtest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// gateSettings gates test_service.web's replacements two at a time,
// giving up after timeout.
func gateSettings(timeout string) string {
	return "health_gate \"test_service.web\" {\n  interval = \"20ms\"\n  timeout  = \"" + timeout + "\"\n  batch    = 2\n}\n"
}

// TestKillAtHealthGate kills rig (SIGKILL) while the first batch of a
// rolling replacement waits at its health gate: the state keeps each new
// object tainted beside the deposed old one, the second batch has not
// started and the dependent has not moved. The next apply, whose new
// objects fail their gate, rolls back without destroying an old object;
// the one after, whose new objects pass, finishes the replacement. After
// each run every object the provider keeps is in the state, and only
// those.
func TestKillAtHealthGate(t *testing.T) {
	e := newKillEnv(t, "")
	world := e.world
	commandtest.WriteFile(t, e.dir, "main.tf", commandtest.GatedFleet(world, "v1", "0", 4))
	commandtest.WriteFile(t, e.dir, "rig.hcl", gateSettings("10m"))
	e.mustRun("apply", "-auto-approve", "-no-color", "-input=false")
	e.checkServices("after the first apply")

	commandtest.WriteFile(t, e.dir, "main.tf", commandtest.GatedFleet(world, "v2", "1000000", 4))
	cmd := exec.Command(e.bin, "-chdir="+e.dir, "apply", "-auto-approve", "-no-color", "-input=false")
	cmd.Env = e.env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		b, _ := os.ReadFile(filepath.Join(world, "log"))
		if strings.Count(string(b), "read web0-v2") >= 3 && strings.Count(string(b), "read web1-v2") >= 3 {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the first batch never waited at its gate:\n%s", b)
		}
	}
	children := childrenOf(cmd.Process.Pid)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	e.checkNoProviderLeft(children)
	// The next run folds the journal the killed one left into the state.
	e.mustRun("plan", "-no-color", "-input=false")

	st := e.services()
	for _, want := range []string{
		"web[0] web0-v2 tainted", "web[0] web0-v1 deposed",
		"web[1] web1-v2 tainted", "web[1] web1-v1 deposed",
		"web[2] web2-v1 ready", "web[3] web3-v1 ready",
		"lb web0-v1,web1-v1,web2-v1,web3-v1",
	} {
		if !slices.Contains(st, want) {
			t.Errorf("the state after the kill has no %q:\n%s", want, strings.Join(st, "\n"))
		}
	}
	if b, _ := os.ReadFile(filepath.Join(world, "log")); strings.Contains(string(b), "create web2-v2") {
		t.Errorf("the second batch started before the first passed its gate:\n%s", b)
	}
	e.checkServices("after the kill")

	// The new objects fail their gate: every old one stays.
	commandtest.WriteFile(t, e.dir, "rig.hcl", gateSettings("200ms"))
	r := e.run("apply", "-auto-approve", "-no-color", "-input=false")
	if r.Code != 1 || !strings.Contains(r.Stderr, "Health gate failed") {
		t.Fatalf("apply whose gates fail: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	for _, id := range []string{"web0-v1", "web1-v1", "web2-v1", "web3-v1"} {
		if _, err := os.Stat(filepath.Join(world, id)); err != nil {
			t.Errorf("%s was destroyed though no replacement passed its gate: %v", id, err)
		}
	}
	if st := e.services(); !slices.Contains(st, "lb web0-v1,web1-v1,web2-v1,web3-v1") {
		t.Errorf("the dependent moved onto objects that failed their gate:\n%s", strings.Join(st, "\n"))
	}
	e.checkServices("after the failed gates")

	// The new objects pass: the replacement finishes.
	commandtest.WriteFile(t, e.dir, "main.tf", commandtest.GatedFleet(world, "v2", "2", 4))
	commandtest.WriteFile(t, e.dir, "rig.hcl", gateSettings("1m"))
	e.mustRun("apply", "-auto-approve", "-no-color", "-input=false")
	if r := e.run("plan", "-detailed-exitcode", "-no-color", "-input=false"); r.Code != 0 {
		t.Fatalf("the plan after the replacement did not converge: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	st = e.services()
	if len(st) != 5 || !slices.Contains(st, "lb "+strings.Join(e.serviceIDs(st), ",")) {
		t.Errorf("after the replacement, want four ready objects and the dependent on them:\n%s", strings.Join(st, "\n"))
	}
	for _, line := range st {
		if strings.Contains(line, "-v1") || strings.Contains(line, "deposed") || strings.Contains(line, "tainted") {
			t.Errorf("left after the replacement: %s", line)
		}
	}
	e.checkServices("after the replacement")
}

// services returns the state's test_service.web objects ("web[0] ID
// ready|tainted|deposed") and test_thing.lb's backends ("lb IDS").
func (e *killEnv) services() []string {
	r := e.mustRun("state", "pull")
	var sf commandtest.StateFile
	if err := json.Unmarshal([]byte(r.Stdout), &sf); err != nil {
		e.t.Fatalf("state pull: %v", err)
	}
	var out []string
	for _, res := range sf.Resources {
		for _, inst := range res.Instances {
			var attrs struct {
				ID   string
				Tags map[string]string
			}
			_ = json.Unmarshal(inst.Attributes, &attrs)
			switch {
			case res.Type == "test_thing":
				out = append(out, "lb "+attrs.Tags["backends"])
			case inst.Deposed != "":
				out = append(out, "web["+jsonIndex(inst.IndexKey)+"] "+attrs.ID+" deposed")
			case inst.Status == "tainted":
				out = append(out, "web["+jsonIndex(inst.IndexKey)+"] "+attrs.ID+" tainted")
			default:
				out = append(out, "web["+jsonIndex(inst.IndexKey)+"] "+attrs.ID+" ready")
			}
		}
	}
	slices.Sort(out)
	return out
}

// serviceIDs returns the ids of the objects in services' lines, in order.
func (e *killEnv) serviceIDs(lines []string) []string {
	var ids []string
	for _, l := range lines {
		if f := strings.Fields(l); len(f) == 3 && strings.HasPrefix(f[0], "web[") {
			ids = append(ids, f[1])
		}
	}
	return ids
}

// checkServices checks that the objects the provider keeps (the files of
// the world but its log) are those the state records.
func (e *killEnv) checkServices(when string) {
	e.t.Helper()
	var world []string
	entries, err := os.ReadDir(e.world)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, ent := range entries {
		if ent.Name() != "log" {
			world = append(world, ent.Name())
		}
	}
	slices.Sort(world)
	inState := e.serviceIDs(e.services())
	slices.Sort(inState)
	if !slices.Equal(world, inState) {
		e.t.Errorf("%s: the provider keeps %v, the state records %v", when, world, inState)
	}
}

// jsonIndex is a state instance's index key as text.
func jsonIndex(key any) string {
	b, _ := json.Marshal(key)
	return string(b)
}
