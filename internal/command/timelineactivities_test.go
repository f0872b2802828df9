package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/timeline"
)

// activitiesConfig chains test_thing.a, whose change fires an action
// before and one after its create, and test_thing.via, served by a
// provider configured from the ephemeral test_token "tok".
const activitiesConfig = testFileProvider + `
ephemeral "test_token" "t" {
  name = "tok"
}
provider "test" {
  alias  = "eph"
  region = ephemeral.test_token.t.secret
}
action "test_log" "before" {
  config {
    message = "before"
  }
}
action "test_log" "after" {
  config {
    message = "after-${self.name}"
  }
}
resource "test_thing" "a" {
  name = "a"
  lifecycle {
    action_trigger {
      events  = [before_create]
      actions = [action.test_log.before]
    }
    action_trigger {
      events  = [after_create]
      actions = [action.test_log.after]
    }
  }
}
resource "test_thing" "via" {
  provider = test.eph
  name     = "via-${test_thing.a.name}"
}
`

// The timeline of an apply shows its actions and the opening and closing
// of its ephemeral resources as bars of their own, in the order the
// provider saw them run; a triggered action's bar lies within its
// operation's.
func TestTimelineActivities(t *testing.T) {
	oplog := actionsWorld(t)
	dir := workDir(t, map[string]string{"main.tf": activitiesConfig})
	page := filepath.Join(t.TempDir(), "timeline.html")
	// Planning opens and closes the token too: the log is of the apply.
	mustRig(t, dir, "plan", "-no-color", "-out=tfplan")
	readOps(t, oplog)
	mustRig(t, dir, "apply", "-no-color", "-timeline="+page, "tfplan")
	ran := readOps(t, oplog)
	b, err := os.ReadFile(filepath.Join(dir, ".terraform", "rig-timeline.json"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := timeline.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}

	// The bars of the operations, and those of what ran within or beside
	// them, each by start, are in the order the provider saw these run.
	var ops, acts []string
	nodeOf := map[string]int{}
	for _, v := range rec.Ran() {
		n := rec.Nodes[v]
		nodeOf[n.Address] = v
		ops = append(ops, "create_"+strings.TrimPrefix(n.Address, "test_thing."))
	}
	for _, a := range rec.Activities {
		switch a.Kind {
		case "invoke-action":
			acts = append(acts, "action_"+strings.TrimPrefix(a.Address, "action.test_log."))
		case "open-ephemeral", "close-ephemeral":
			acts = append(acts, strings.TrimSuffix(string(a.Kind), "-ephemeral")+"_tok")
		}
		if a.Outcome != timeline.OK {
			t.Errorf("%s: outcome %s (%s)", a.Label, a.Outcome, a.Error)
		}
	}
	wantOps(t, "the provider's log", ran, "action_before", "create_a", "action_after-a", "open_tok", "create_via-a", "close_tok")
	wantOps(t, "operation bars by start", ops, "create_a", "create_via")
	wantOps(t, "activity bars by start", acts, "action_before", "action_after", "open_tok", "close_tok")

	// Each triggered action runs within its operation; the token is
	// closed once the operation that used it is over.
	a := rec.Nodes[nodeOf["test_thing.a"]]
	via := rec.Nodes[nodeOf["test_thing.via"]]
	for _, act := range rec.Activities {
		switch act.Kind {
		case "invoke-action":
			if act.Operation != nodeOf["test_thing.a"] || act.Start.Before(a.Start) || act.End.After(a.End) {
				t.Errorf("%s: not within test_thing.a's bar (%s–%s): %s–%s, operation %d", act.Label, a.Start, a.End, act.Start, act.End, act.Operation)
			}
			if act.Event == "after_create" && act.End.After(via.Start) {
				t.Errorf("%s ended at %s, after test_thing.via started at %s", act.Label, act.End, via.Start)
			}
			if act.Event != "before_create" && act.Event != "after_create" {
				t.Errorf("%s: event %q", act.Label, act.Event)
			}
		case "open-ephemeral":
			if act.Start.Before(a.End) {
				t.Errorf("%s started at %s, before test_thing.a ended at %s", act.Label, act.Start, a.End)
			}
		case "close-ephemeral":
			if act.Start.Before(via.End) {
				t.Errorf("%s started at %s, before test_thing.via ended at %s", act.Label, act.Start, via.End)
			}
		}
	}

	// An apply that only invokes an action keeps its record too: the
	// action, run once every operation (none here) is done.
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-invoke=action.test_log.before")
	// (Planning reads back only what the action refers to: nothing here,
	// so the token is not opened.)
	wantOps(t, "the provider's log of the invocation", readOps(t, oplog), "action_before")
	b2, err := os.ReadFile(filepath.Join(dir, ".terraform", "rig-timeline.json"))
	if err != nil {
		t.Fatal(err)
	}
	inv, err := timeline.Unmarshal(b2)
	if err != nil {
		t.Fatal(err)
	}
	if len(inv.Ran()) != 0 || len(inv.Activities) != 1 || inv.Activities[0].Event != "invoke" || inv.Activities[0].Operation != -1 ||
		inv.Activities[0].Label != "action.test_log.before (-invoke)" || inv.Activities[0].Outcome != timeline.OK {
		t.Errorf("the record of an apply invoking an action: %d operations ran, activities %+v", len(inv.Ran()), inv.Activities)
	}

	// The page draws them, each with its kind; the token's secret is
	// nowhere in the record or on the page.
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`class="activity" data-kind="invoke-action"`, `data-kind="open-ephemeral"`, `data-kind="close-ephemeral"`,
		"action.test_log.before (before_create of test_thing.a)", "close ephemeral.test_token.t", `class="progress"`} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the timeline page lacks %q", want)
		}
	}
	for _, f := range [][]byte{b, html} {
		if strings.Contains(string(f), "token-tok") {
			t.Errorf("the token's secret is written:\n%s", f)
		}
	}
}

// Each check of a health gate is a bar of the timeline within its
// operation, naming the data source it read again: as many as the
// provider saw probes after the new object's create, all failed but the
// last.
func TestTimelineGateChecks(t *testing.T) {
	world, dir := gatedRedeploy(t, probedConfig, "health_gate \"test_service.web\" {\n  interval = \"10ms\"\n  timeout  = \"20s\"\n}\n", "probe-web", "3")
	log := strings.Join(serviceLogLines(t, world), "\n")
	create := strings.Index(log, "create web-v2")
	if create < 0 {
		t.Fatalf("no create of web-v2 in the provider's log:\n%s", log)
	}
	probes := strings.Count(log[create:], "probe web")

	b, err := os.ReadFile(filepath.Join(dir, ".terraform", "rig-timeline.json"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := timeline.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var checks []timeline.Activity
	for _, a := range rec.Activities {
		if a.Kind == "gate-check" {
			checks = append(checks, a)
		}
	}
	if len(checks) != probes || probes < 2 {
		t.Fatalf("%d gate checks on the timeline, %d probes in the provider's log after the create:\n%s", len(checks), probes, log)
	}
	for i, c := range checks {
		if c.Operation < 0 || rec.Nodes[c.Operation].Address != "test_service.web" || rec.Nodes[c.Operation].Action != "replace-create" {
			t.Errorf("check %d is not within the create of test_service.web: operation %d", i+1, c.Operation)
			continue
		}
		n := rec.Nodes[c.Operation]
		if c.Start.Before(n.Start) || c.End.After(n.End) {
			t.Errorf("check %d (%s–%s) outside its operation (%s–%s)", i+1, c.Start, c.End, n.Start, n.End)
		}
		if want := fmt.Sprintf("health gate check %d of test_service.web (reads data.test_probe.health)", i+1); c.Label != want {
			t.Errorf("check %d: label %q, want %q", i+1, c.Label, want)
		}
		want := timeline.Failed
		if i == len(checks)-1 {
			want = timeline.OK
		}
		if c.Outcome != want {
			t.Errorf("check %d: outcome %s, want %s (%s)", i+1, c.Outcome, want, c.Error)
		}
		if i > 0 && c.Start.Before(checks[i-1].End) {
			t.Errorf("check %d started before check %d ended", i+1, i)
		}
	}
	if checks[0].Error == "" || !strings.Contains(checks[0].Error, "The health check failed after") {
		t.Errorf("the first check's error does not say why it failed: %q", checks[0].Error)
	}
}
