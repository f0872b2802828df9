package command

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/provider/providertest"
)

const driftConfig = `
terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}

variable "want" {
  default = "v"
}

resource "test_thing" "x" {
  key   = "k"
  value = "v"
  lifecycle {
    postcondition {
      condition     = self.value == var.want
      error_message = "value is ${self.value}"
    }
  }
}
`

// TestDrift: rig drift reads every object back and reports each attribute
// changed outside rig (text and -json), or the object's deletion, and
// the conditions that fail against what it read; it exits 0 when nothing
// changed, 2 on drift or a failed condition, 1 on an error, and never
// writes the state.
func TestDrift(t *testing.T) {
	live := providertest.New()
	withTestProvider(t, live)
	dir := workDir(t, map[string]string{"main.tf": driftConfig})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	_, before := readStateFile(t, dir)

	r := rig(t, dir, "drift", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "No drift. 1 object read back, none changed outside rig.") {
		t.Errorf("drift without changes: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	r = rig(t, dir, "drift", "-no-color", "-var", "want=w")
	if r.code != 2 || !strings.Contains(r.stdout, "Warning: Resource postcondition failed") || !strings.Contains(r.stdout, "1 checked object has conditions that failed") {
		t.Errorf("drift with a failing postcondition: exit %d, want 2\n%s%s", r.code, r.stdout, r.stderr)
	}

	driftValue(t, live, "changed")
	r = rig(t, dir, "drift", "-no-color", "-var", "want=changed")
	if r.code != 2 {
		t.Errorf("drift: exit %d, want 2\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, "drift output", r.stdout,
		"Drift detected. 1 of 1 object changed outside rig:",
		"# test_thing.x has changed",
		`output: "v" → "changed"`,
		`value: "v" → "changed"`,
		"rig apply -refresh-only",
	)
	if strings.Contains(r.stdout, "Warning") {
		t.Errorf("a postcondition that holds on the drifted object warns:\n%s", r.stderr)
	}

	r = rig(t, dir, "drift", "-json", "-var", "want=changed")
	if r.code != 2 {
		t.Errorf("drift -json: exit %d, want 2\n%s%s", r.code, r.stdout, r.stderr)
	}
	var paths []string
	var summary map[string]any
	var resourceDrift bool
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var msg struct {
			Type      string         `json:"type"`
			Attribute map[string]any `json:"drift_attribute"`
			Summary   map[string]any `json:"drift_summary"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		switch msg.Type {
		case "drift_attribute":
			paths = append(paths, msg.Attribute["path"].(string))
			if msg.Attribute["before"] != "v" || msg.Attribute["after"] != "changed" {
				t.Errorf("drift_attribute: %s", line)
			}
		case "drift_summary":
			summary = msg.Summary
		case "resource_drift":
			resourceDrift = true
		}
	}
	if strings.Join(paths, ",") != "output,value" || !resourceDrift {
		t.Errorf("drift_attribute paths %q, resource_drift %v:\n%s", paths, resourceDrift, r.stdout)
	}
	if summary["objects"] != 1.0 || summary["drifted"] != 1.0 || summary["failed_conditions"] != 0.0 {
		t.Errorf("drift_summary %v", summary)
	}

	for _, o := range live.Live() {
		live.RemoveLive(o.ID)
	}
	r = rig(t, dir, "drift", "-no-color")
	if r.code != 2 || !strings.Contains(r.stdout, "# test_thing.x has been deleted") {
		t.Errorf("drift after a deletion: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	if r := rig(t, dir, "drift", "-refresh=false"); r.code != 1 {
		t.Errorf("drift -refresh=false: exit %d, want 1\n%s", r.code, r.stderr)
	}
	if _, after := readStateFile(t, dir); string(after) != string(before) {
		t.Errorf("drift wrote the state")
	}
}
