package command

import (
	"os"
	"path/filepath"
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
	world := t.TempDir()
	dir := workDir(t, map[string]string{
		"main.tf": probedConfig(world, "v1", "1"),
		"rig.hcl": "health_gate \"test_service.web\" {\n  interval = \"10ms\"\n  timeout  = \"20s\"\n}\n",
	})
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	os.Remove(filepath.Join(world, "log"))
	os.Remove(filepath.Join(world, "probe-web"))

	// The plan reads the probe once (not ready); the gate reads it again
	// until its fourth read says ready.
	writeFile(t, dir, "main.tf", probedConfig(world, "v2", "4"))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
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
