package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// probedConfig is one test_service replaced create first when version
// changes, whose postcondition asks a health check (the test_probe data
// source, ready after readyAfter reads) rather than the object itself.
func probedConfig(world, version, readyAfter string) string {
	return protectProviders + `data "test_probe" "health" {
  dir         = "` + filepath.ToSlash(world) + `"
  name        = "web"
  ready_after = ` + readyAfter + `
}
resource "test_service" "web" {
  dir     = "` + filepath.ToSlash(world) + `"
  name    = "web"
  version = "` + version + `"
  lifecycle {
    create_before_destroy = true
    postcondition {
      # Checked once the object exists (its id is known).
      condition     = self.id != "" ? data.test_probe.health.ready : false
      error_message = "The health check failed after ${data.test_probe.health.reads} reads."
    }
  }
}
resource "test_thing" "lb" {
  name = "lb"
  tags = { backend = test_service.web.id }
}
`
}

// TestHealthGateReadsDataSources: a health gate whose postcondition
// refers to a data source reads it again for each check, so a health
// check whose answer flips after some reads lets the new object pass;
// one that never flips fails the gate with the data source's last answer.
func TestHealthGateReadsDataSources(t *testing.T) {
	// The plan reads the probe once (not ready); the gate reads it again
	// until its fourth read says ready.
	world, dir := gatedRedeploy(t, probedConfig, "health_gate \"test_service.web\" {\n  interval = \"10ms\"\n  timeout  = \"20s\"\n}\n", "probe-web", "4")
	log := serviceLogLines(t, world)
	got := strings.Join(log, "\n")
	create := strings.Index(got, "create web-v2")
	if create < 0 || strings.Count(got[create:], "probe web") != 3 || !strings.Contains(got, "delete web-v1") ||
		strings.Index(got, "delete web-v1") < strings.LastIndex(got, "probe web") {
		t.Errorf("the gate did not read the health check again until it passed, then destroy the old object:\n%s", got)
	}
	if r := rigOK(t, dir, "plan", "-no-color", "-detailed-exitcode", "-refresh=false"); r.code != 0 {
		t.Errorf("plan after the gated replacement: exit %d\n%s", r.code, r.stdout)
	}

	// A health check that never passes: the gate reads it at each check
	// and reports its last answer; the old object stays.
	writeFile(t, dir, "rig.hcl", "health_gate \"test_service.web\" {\n  interval = \"10ms\"\n  timeout  = \"200ms\"\n}\n")
	writeFile(t, dir, "main.tf", probedConfig(world, "v3", "1000000"))
	r := rig(t, dir, "apply", "-auto-approve", "-no-color")
	stderr := oneLine(r.stderr)
	if r.code != 1 || !strings.Contains(stderr, "Error: Health gate failed") || !strings.Contains(stderr, "The health check failed after") {
		t.Fatalf("apply with a failing health check: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(world, "web-v2")); err != nil {
		t.Errorf("the old object is gone after a failed gate: %v", err)
	}
	if _, err := os.Stat(filepath.Join(world, "web-v3")); !os.IsNotExist(err) {
		t.Errorf("the new object that failed its gate still exists: %v", err)
	}
}

// TestHealthGateRollbackFails: when the new object of a failed gate
// cannot be destroyed, the apply reports both failures, the state keeps
// both objects (the new one tainted, the old one deposed) and nothing
// that depends on them changes; the next apply replaces the new object
// and destroys the old one only once a replacement has passed.
func TestHealthGateRollbackFails(t *testing.T) {
	world := t.TempDir()
	dir := workDir(t, map[string]string{
		"main.tf": gatedConfig(world, "v1", "0", 1),
		"rig.hcl": "health_gate \"test_service.web\" {\n  interval = \"10ms\"\n  timeout  = \"200ms\"\n}\n",
	})
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	writeFile(t, world, "web0-v2.nodelete", "")
	writeFile(t, dir, "main.tf", gatedConfig(world, "v2", "1000", 1))
	r := rig(t, dir, "apply", "-auto-approve", "-no-color")
	stderr := oneLine(r.stderr)
	for _, want := range []string{"Error: Health gate failed", "Error: Failed to destroy the new object", "web0-v2 cannot be deleted"} {
		if r.code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("apply whose rollback fails: exit %d, no %q\n%s", r.code, want, r.stderr)
		}
	}
	report := oneLine(r.stdout[max(strings.Index(r.stdout, "Apply report:"), 0):])
	checkContains(t, "the apply report", report, "Apply report: failed. 0 applied, 1 failed, 2 not started.", "test_service.web[0] (create) Health gate failed", "Failed to destroy the new object",
		"test_service.web[0] (destroy deposed) (waits for the failed test_service.web[0] (create))", "test_thing.lb (update) (waits for the failed test_service.web[0] (create))",
	)
	sf, _ := readStateFile(t, dir)
	var objs []string
	for _, res := range sf.Resources {
		for _, in := range res.Instances {
			var attrs struct{ ID string }
			_ = json.Unmarshal(in.Attributes, &attrs)
			objs = append(objs, res.Type+" "+attrs.ID+" deposed="+strconv.FormatBool(in.Deposed != "")+" "+in.Status)
		}
	}
	slices.Sort(objs)
	if got := strings.Join(objs, "\n"); got != "test_service web0-v1 deposed=true \ntest_service web0-v2 deposed=false tainted\ntest_thing id-lb deposed=false " {
		t.Errorf("state after the failed rollback:\n%s", got)
	}
	for _, id := range []string{"web0-v1", "web0-v2"} {
		if _, err := os.Stat(filepath.Join(world, id)); err != nil {
			t.Errorf("%s is gone: %v", id, err)
		}
	}

	os.Remove(filepath.Join(world, "web0-v2.nodelete"))
	writeFile(t, dir, "main.tf", gatedConfig(world, "v3", "2", 1))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	log := strings.Join(serviceLogLines(t, world), "\n")
	v3 := strings.Index(log, "create web0-v3")
	if v3 < 0 || strings.Index(log, "delete web0-v1") < v3 || !strings.Contains(log[v3:], "delete web0-v2") {
		t.Errorf("the next apply did not replace the tainted object, then destroy the deposed one:\n%s", log)
	}
	if r := rigOK(t, dir, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("plan after recovering from the failed rollback: exit %d\n%s", r.code, r.stdout)
	}
}

// gatedRedeploy applies the configuration config makes at version v1
// (its probe ready at once) under the health gate rig.hcl describes,
// clears the provider's log and probe file, then applies version v2 whose
// probe says ready at its readyAfter-th read. It returns the provider's
// world and the working directory.
func gatedRedeploy(t *testing.T, config func(world, version, readyAfter string) string, gate, probe, readyAfter string) (world, dir string) {
	t.Helper()
	world = t.TempDir()
	dir = workDir(t, map[string]string{"main.tf": config(world, "v1", "1"), "rig.hcl": gate})
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	os.Remove(filepath.Join(world, "log"))
	os.Remove(filepath.Join(world, probe))
	writeFile(t, dir, "main.tf", config(world, "v2", readyAfter))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	return world, dir
}
