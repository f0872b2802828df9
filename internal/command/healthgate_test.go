package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// gatedConfig is a fleet of count test_service objects behind a health
// gate's postcondition, and a dependent (commandtest.GatedFleet).
var gatedConfig = commandtest.GatedFleet

// serviceLogLines returns the test provider's log of test_service calls.
func serviceLogLines(t *testing.T, world string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(world, "log"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// TestHealthGatedRollingReplacement: with a health_gate in rig.hcl, a
// create_before_destroy replacement reads the new object again until its
// postconditions pass before anything moves onto it, two instances at a
// time; the plan's order of operations shows the batches.
func TestHealthGatedRollingReplacement(t *testing.T) {
	world := t.TempDir()
	dir := workDir(t, map[string]string{
		"main.tf": gatedConfig(world, "v1", "0", 3),
		"rig.hcl": "health_gate \"test_service.web\" {\n  interval = \"10ms\"\n  timeout  = \"20s\"\n  batch    = 2\n}\n",
	})
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	os.Remove(filepath.Join(world, "log"))

	writeFile(t, dir, "main.tf", gatedConfig(world, "v2", "3", 3))
	r := rigOK(t, dir, "plan", "-no-color")
	order := r.stdout[strings.Index(r.stdout, "Order of operations:"):]
	checkContains(t, "the order of operations", order,
		"1. create test_service.web[0] (health gated, batch 1)\n     create test_service.web[1] (health gated, batch 1)\n",
		"2. create test_service.web[2] (health gated, batch 2)",
	)
	if r := rigOK(t, dir, "explain", "-no-color", "test_service.web[2]"); !strings.Contains(oneLine(r.stdout), "rolling replacement: batch 2 of test_service.web starts once batch 1 has passed its health gate") {
		t.Errorf("explain does not give the batch rule:\n%s", r.stdout)
	}
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	log := serviceLogLines(t, world)
	pos := map[string]int{}
	reads := map[string]int{}
	for i, line := range log {
		if _, ok := pos[line]; !ok {
			pos[line] = i
		}
		if id, ok := strings.CutPrefix(line, "read "); ok {
			reads[id]++
		}
	}
	for _, id := range []string{"web0-v2", "web1-v2", "web2-v2"} {
		if reads[id] < 3 {
			t.Errorf("%s was read %d times before passing, want 3 or more\n%s", id, reads[id], strings.Join(log, "\n"))
		}
	}
	// Batch 2 starts after batch 1 passed; old objects go after all.
	if pos["create web2-v2"] < pos["read web0-v2"]+2 || pos["create web2-v2"] < pos["read web1-v2"]+2 {
		t.Errorf("web2 was created before batch 1 passed its gate:\n%s", strings.Join(log, "\n"))
	}
	for _, old := range []string{"web0-v1", "web1-v1", "web2-v1"} {
		if p, ok := pos["delete "+old]; !ok || p < pos["create web2-v2"] {
			t.Errorf("%s deleted before the last batch was created, or not at all:\n%s", old, strings.Join(log, "\n"))
		}
	}
	if r := rigOK(t, dir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("plan after the rolling replacement: exit %d", r.code)
	}
}

// TestHealthGateFails: a new object that does not pass its gate before
// the timeout is destroyed, the old one stays current, the dependent is
// not changed, later batches do not start, and the apply reports the gate
// with the condition's message.
func TestHealthGateFails(t *testing.T) {
	world := t.TempDir()
	dir := workDir(t, map[string]string{
		"main.tf": gatedConfig(world, "v1", "0", 2),
		"rig.hcl": "health_gate \"test_service.web\" {\n  interval = \"10ms\"\n  timeout  = \"300ms\"\n  batch    = 1\n}\n",
	})
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	before, _ := readStateFile(t, dir)
	writeFile(t, dir, "main.tf", gatedConfig(world, "v2", "1000", 2))
	r := rig(t, dir, "apply", "-auto-approve", "-no-color")
	stderr := oneLine(r.stderr)
	if r.code != 1 || !strings.Contains(stderr, "Error: Health gate failed") || !strings.Contains(stderr, "The new object of test_service.web[0] did not pass its health gate (rig.hcl)") ||
		!strings.Contains(stderr, "web0-v2 is not ready.") {
		t.Fatalf("apply: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Apply report: failed.") || !strings.Contains(r.stdout, "test_service.web[1] (create) (waits for the failed test_service.web[0] (create))") {
		t.Errorf("the apply report does not tell the failed gate and what waited:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(world, "web0-v2")); !os.IsNotExist(err) {
		t.Errorf("the new object that failed its gate still exists: %v", err)
	}
	for _, id := range []string{"web0-v1", "web1-v1"} {
		if _, err := os.Stat(filepath.Join(world, id)); err != nil {
			t.Errorf("old object %s is gone: %v", id, err)
		}
	}
	if _, err := os.Stat(filepath.Join(world, "web1-v2")); !os.IsNotExist(err) {
		t.Errorf("the next batch started: %v", err)
	}
	after, _ := readStateFile(t, dir)
	ids := func(sf stateFile) string {
		var out []string
		for _, res := range sf.Resources {
			for _, in := range res.Instances {
				out = append(out, res.Type+":"+string(in.Attributes)+":"+in.Deposed+":"+in.Status)
			}
		}
		return strings.Join(out, "\n")
	}
	if ids(before) != ids(after) {
		t.Errorf("the state changed:\nbefore:\n%s\nafter:\n%s", ids(before), ids(after))
	}
}

// TestHealthGateSettings: rig.hcl's health_gate blocks and
// record_prevent_destroy are checked where they are written.
func TestHealthGateSettings(t *testing.T) {
	for _, tt := range []struct {
		name, settings, want string
	}{
		{"no label", "health_gate {\n}\n", "Invalid health_gate"},
		{"bad interval", "health_gate \"a.b\" {\n  interval = \"soon\"\n}\n", "Invalid interval"},
		{"zero timeout", "health_gate \"a.b\" {\n  timeout = \"0s\"\n}\n", "Invalid timeout"},
		{"bad batch", "health_gate \"a.b\" {\n  batch = 0\n}\n", "Invalid batch"},
		{"unknown argument", "health_gate \"a.b\" {\n  every = \"1s\"\n}\n", `A health_gate block has no argument "every"`},
		{"duplicate", "health_gate \"a.b\" {\n}\nhealth_gate \"a.b\" {\n}\n", "Duplicate health_gate"},
		{"unknown block", "gate \"a.b\" {\n}\n", `rig.hcl has no block type "gate"`},
		{"record not a bool", "record_prevent_destroy = \"yes\"\n", "Invalid record_prevent_destroy"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`, "rig.hcl": tt.settings})
			r := rig(t, dir, "plan", "-no-color")
			if r.code != 1 || !strings.Contains(r.stderr, tt.want) || !strings.Contains(r.stderr, "rig.hcl line") {
				t.Errorf("exit %d, want 1 with %q at its line:\n%s", r.code, tt.want, r.stderr)
			}
		})
	}
}
