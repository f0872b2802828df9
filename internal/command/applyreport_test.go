package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestApplyReport: an apply whose operation fails ends with a report of
// what was applied, what failed and why, what did not start because of
// which failure, and what is left to do — in the text output, as one
// apply_report message with -json, on the timeline page, and again from
// rig show -last-apply.
func TestApplyReport(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": protectProviders + `resource "test_thing" "ok" {
  name = "ok"
}
resource "test_thing" "bad" {
  name = "fail-apply"
}
resource "test_thing" "after" {
  name = "after"
  size = length(test_thing.bad.id)
}
resource "test_thing" "last" {
  name = "last"
  size = length(test_thing.after.id)
}
`})
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	page := filepath.Join(t.TempDir(), "timeline.html")
	r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-timeline="+page)
	if r.code != 1 {
		t.Fatalf("apply: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Apply report:") {
		t.Fatalf("no report:\n%s\n%s", r.stdout, r.stderr)
	}
	report := r.stdout[strings.Index(r.stdout, "Apply report:"):]
	report = report[:strings.Index(report, "The timeline of this apply")]
	want := `Apply report: failed. 1 applied, 1 failed, 2 not started.

Failed:
  test_thing.bad (create)
      main.tf:9,29: Apply failed; The thing was created but could not be tagged.

Not started:
  test_thing.after (create) (waits for the failed test_thing.bad (create))
  test_thing.last (create) (waits for the failed test_thing.bad (create))

Applied (recorded in the state):
  test_thing.ok (create)

Left to do: 3 operation(s). The state records every operation that finished,
so the next plan holds only what is left; an object a failed create left
behind is tainted and will be replaced. Fix what failed and run "rig apply"
again.
`
	if strings.TrimSpace(report) != strings.TrimSpace(want) {
		t.Errorf("apply report:\n%s\nwant:\n%s", report, want)
	}
	if r := rigOK(t, dir, "show", "-last-apply", "-no-color"); !strings.Contains(r.stdout, "The last apply finished") || !strings.HasSuffix(strings.TrimSpace(r.stdout), strings.TrimSpace(want)) {
		t.Errorf("show -last-apply:\n%s", r.stdout)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), `<section id="report"><h2>Report: failed</h2>`) || !strings.Contains(string(html), "test_thing.last (create) (waits for the failed test_thing.bad (create))") {
		t.Errorf("the timeline page has no report:\n%s", html)
	}

	// -json: one apply_report message; show -last-apply -json: the report.
	r = rig(t, dir, "apply", "-auto-approve", "-json")
	var msgs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if m["type"] == "apply_report" {
			msgs = append(msgs, m)
		}
	}
	if r.code != 1 || len(msgs) != 1 {
		t.Fatalf("apply -json: exit %d, %d apply_report messages\n%s", r.code, len(msgs), r.stdout)
	}
	rep := msgs[0]["report"].(map[string]any)
	if msgs[0]["@message"] != "Apply report: failed. 1 applied, 1 failed, 2 not started." || rep["outcome"] != "failed" ||
		len(rep["failed"].([]any)) != 1 || len(rep["not_started"].([]any)) != 2 {
		t.Errorf("apply_report message: %v", msgs[0])
	}
	r = rigOK(t, dir, "show", "-last-apply", "-json")
	var last struct {
		Outcome    string
		Failed     []struct{ Operation, Error string }
		NotStarted []struct {
			Operation string
			BlockedBy []string `json:"blocked_by"`
		} `json:"not_started"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &last); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	if last.Outcome != "failed" || len(last.Failed) != 1 || last.Failed[0].Operation != "test_thing.bad (create)" ||
		len(last.NotStarted) != 2 || len(last.NotStarted[0].BlockedBy) != 1 {
		t.Errorf("show -last-apply -json: %s", r.stdout)
	}
}
