package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// probedFleet is count test_service objects replaced create first when
// version changes, each gated by a postcondition on one shared health
// check (test_probe, ready after readyAfter reads).
func probedFleet(world, version, readyAfter string) string {
	return protectProviders + `data "test_probe" "health" {
  dir         = "` + filepath.ToSlash(world) + `"
  name        = "fleet"
  ready_after = ` + readyAfter + `
}
resource "test_service" "web" {
  count   = 3
  dir     = "` + filepath.ToSlash(world) + `"
  name    = "web${count.index}"
  version = "` + version + `"
  lifecycle {
    create_before_destroy = true
    postcondition {
      condition     = self.id != "" ? data.test_probe.health.ready : false
      error_message = "The health check failed after ${data.test_probe.health.reads} reads."
    }
  }
}
`
}

// TestHealthGateReadsDataOncePerRound: the new objects of a batch are
// checked in rounds, and each round reads the health check they share
// once, not once per object.
func TestHealthGateReadsDataOncePerRound(t *testing.T) {
	// The plan reads the probe once (not ready); it says ready at its
	// fourth read. Read once a round for the three objects together, it
	// is read three times more; read by each object's check, it would be
	// read five times or more (each object needs a read of its own that
	// says ready).
	world, _ := gatedRedeploy(t, probedFleet, "health_gate \"test_service.web\" {\n  interval = \"300ms\"\n  timeout  = \"20s\"\n  batch    = 3\n}\n", "probe-fleet", "4")
	log := serviceLogLines(t, world)
	got := strings.Join(log, "\n")
	first := strings.Index(got, "create web")
	if first < 0 {
		t.Fatalf("no create in the log:\n%s", got)
	}
	// The three creates start together; one that reaches its gate after
	// the first round ended joins the next, so the rounds are three, or
	// four on a machine slow enough to split the first.
	if n := strings.Count(got[first:], "probe fleet"); n < 3 || n > 4 {
		t.Errorf("the gates read the shared health check %d times, want once a round (3 rounds):\n%s", n, got)
	}
	for _, id := range []string{"web0-v1", "web1-v1", "web2-v1"} {
		if !strings.Contains(got, "delete "+id) {
			t.Errorf("%s was not replaced:\n%s", id, got)
		}
	}
}
