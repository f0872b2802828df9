package command

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/provider/providertest"
)

const refreshOnlyConfig = `
terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}

resource "test_thing" "x" {
  key   = "k"
  value = "v"
}

output "value" {
  value = test_thing.x.value
}
`

// driftValue changes the value attribute of the one live object, as if
// changed outside rig.
func driftValue(t *testing.T, live *providertest.Provider, value string) {
	t.Helper()
	if objs := live.Live(); len(objs) != 1 {
		t.Fatalf("live objects: %v", objs)
	}
	driftObject(t, live, "k", map[string]string{"value": value, "output": value})
}

// driftObject sets attributes of the live object whose key is key to the
// values attrs gives, as if changed outside rig.
func driftObject(t *testing.T, live *providertest.Provider, key string, attrs map[string]string) {
	t.Helper()
	for _, o := range live.Live() {
		if o.State.GetAttr("key").AsString() != key {
			continue
		}
		m := o.State.AsValueMap()
		for name, v := range attrs {
			m[name] = cty.StringVal(v)
		}
		live.RemoveLive(o.ID)
		if err := live.AddLive(o.Type, cty.ObjectVal(m)); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("no live object has the key %q", key)
}

// TestRefreshOnly: a refresh-only plan shows what changed outside rig and
// changes nothing; applying it records the refreshed object and output
// without touching the remote object; rig refresh does the same without
// asking.
func TestRefreshOnly(t *testing.T) {
	live := providertest.New()
	withTestProvider(t, live)
	dir := workDir(t, map[string]string{"main.tf": refreshOnlyConfig})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	driftValue(t, live, "changed")
	_, before := readStateFile(t, dir)

	r := rig(t, dir, "plan", "-refresh-only", "-no-color", "-detailed-exitcode")
	if r.code != 2 {
		t.Fatalf("plan -refresh-only: exit %d, want 2\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, "plan", r.stdout,
		"Note: Objects have changed outside of rig",
		"rig detected the following changes made outside of rig since the last",
		"# test_thing.x has changed",
		`~ value  = "v" -> "changed"`,
		"Changes to Outputs:",
		"This is a refresh-only plan, so rig will not take any actions to undo these.",
	)
	if strings.Contains(r.stdout, "will be updated in-place") {
		t.Errorf("a refresh-only plan plans a change:\n%s", r.stdout)
	}
	if _, after := readStateFile(t, dir); string(after) != string(before) {
		t.Errorf("plan -refresh-only wrote the state")
	}
	r = mustRig(t, dir, "plan", "-refresh-only", "-json")
	if !strings.Contains(r.stdout, `"type":"resource_drift"`) {
		t.Errorf("plan -refresh-only -json lacks resource_drift:\n%s", r.stdout)
	}

	ops := len(live.Ops())
	r = mustRig(t, dir, "apply", "-refresh-only", "-auto-approve", "-no-color")
	if !strings.Contains(r.stdout, "Apply complete! Resources: 0 added, 0 changed, 0 destroyed.") {
		t.Errorf("apply -refresh-only:\n%s", r.stdout)
	}
	if got := readOutput(t, dir, "value"); got != `"changed"` {
		t.Errorf("output value = %s after apply -refresh-only, want \"changed\"", got)
	}
	driftValue(t, live, "again")
	r = mustRig(t, dir, "refresh", "-no-color")
	if got := readOutput(t, dir, "value"); got != `"again"` {
		t.Errorf("output value = %s after refresh, want \"again\"\n%s", got, r.stdout)
	}
	for _, op := range live.Ops()[ops:] {
		t.Errorf("a refresh changed a remote object: %v", op)
	}
	if r := rig(t, dir, "plan", "-refresh-only", "-destroy", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, "Incompatible plan mode options") {
		t.Errorf("plan -refresh-only -destroy: exit %d\n%s", r.code, r.stderr)
	}
}

// readOutput returns the JSON value of a root output in the state file.
func readOutput(t *testing.T, dir, name string) string {
	t.Helper()
	sf, _ := readStateFile(t, dir)
	var o struct {
		Value json.RawMessage `json:"value"`
	}
	raw, ok := sf.Outputs[name]
	if !ok {
		return "(none)"
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatal(err)
	}
	return compactJSON(o.Value)
}

// relevantDriftConfig has test_thing.y refer to the value of test_thing.x,
// whose changes outside rig x itself ignores.
const relevantDriftConfig = `
terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}

resource "test_thing" "x" {
  key   = "k"
  value = "v"
  lifecycle {
    ignore_changes = [value]
  }
}

resource "test_thing" "y" {
  key = "y"
  ref = [test_thing.x.value]
}
`

// A normal plan shows, as OpenTofu does, the changes made outside rig
// that may explain it: the attributes of other objects that the planned
// changes refer to, directly or not (the plan's relevant_attributes).
// Drift that the plan itself reverts is shown by the plan, not the note.
func TestNormalPlanShowsRelevantDrift(t *testing.T) {
	live := providertest.New()
	withTestProvider(t, live)
	dir := workDir(t, map[string]string{"main.tf": refreshOnlyConfig})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	driftValue(t, live, "changed")
	r := rig(t, dir, "plan", "-no-color")
	if !strings.Contains(r.stdout, "# test_thing.x will be updated in-place") {
		t.Errorf("plan does not revert the change made outside rig:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "Objects have changed outside of rig") {
		t.Errorf("the drift the plan reverts has a note too:\n%s", r.stdout)
	}

	live = providertest.New()
	withTestProvider(t, live)
	dir = workDir(t, map[string]string{"main.tf": relevantDriftConfig})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	driftObject(t, live, "k", map[string]string{"value": "changed", "output": "out-changed"})
	r = rig(t, dir, "plan", "-no-color", "-out=p.plan")
	checkContains(t, "plan", r.stdout,
		"Note: Objects have changed outside of rig",
		"# test_thing.x has changed",
		`~ value  = "v" -> "changed"`,
		"actions to undo or respond to these changes.",
		"# test_thing.y will be updated in-place",
	)
	// Only the relevant attribute's change is shown.
	if strings.Contains(r.stdout, "out-changed") {
		t.Errorf("the note shows a change to an attribute nothing refers to:\n%s", r.stdout)
	}
	if strings.Index(r.stdout, "has changed") > strings.Index(r.stdout, "will be updated in-place") {
		t.Error("the drift note comes after the plan")
	}
	show := mustRig(t, dir, "show", "-json", "p.plan")
	var doc struct {
		Drift []struct {
			Address string `json:"address"`
		} `json:"resource_drift"`
		Relevant []struct {
			Resource  string `json:"resource"`
			Attribute []any  `json:"attribute"`
		} `json:"relevant_attributes"`
	}
	if err := json.Unmarshal([]byte(show.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Drift) != 1 || doc.Drift[0].Address != "test_thing.x" {
		t.Errorf("resource_drift = %+v, want test_thing.x", doc.Drift)
	}
	if len(doc.Relevant) != 1 || doc.Relevant[0].Resource != "test_thing.x" || len(doc.Relevant[0].Attribute) != 1 || doc.Relevant[0].Attribute[0] != "value" {
		t.Errorf("relevant_attributes = %+v, want test_thing.x [value]", doc.Relevant)
	}
}
