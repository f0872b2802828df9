package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/timeline"
)

// TestApplyTimeline checks -timeline on apply and destroy, the record
// kept of the last run that ran an operation, and show -timeline.
func TestApplyTimeline(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	record := filepath.Join(dir, ".terraform", "rig-timeline.json")

	r := rig(t, dir, "show", "-timeline", filepath.Join(dir, "none.html"))
	if r.code != 1 || !strings.Contains(r.stderr, "No timeline recorded") {
		t.Errorf("show -timeline before any apply: exit %d\n%s", r.code, r.stderr)
	}

	page := filepath.Join(dir, "apply.html")
	r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-parallelism=3", "-limit=terraform_data=1", "-timeline="+page)
	if r.code != 0 {
		t.Fatalf("apply: exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "The timeline of this apply is in "+page+".") {
		t.Errorf("apply does not say where the timeline is:\n%s", r.stdout)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `<rect class="bar`); n != 2 {
		t.Errorf("%d bars in the apply's timeline, want 2", n)
	}
	fi, err := os.Stat(record)
	if err != nil {
		t.Fatalf("no record of the apply: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", record, fi.Mode().Perm())
	}
	rec := readTimelineRecord(t, record)
	if rec.Command != "apply" || rec.Parallelism != 3 || len(rec.Limits) != 1 || rec.Limits[0] != (timeline.Limit{Name: "terraform_data", N: 1}) {
		t.Errorf("record header: %s, parallelism %d, limits %v", rec.Command, rec.Parallelism, rec.Limits)
	}
	for _, i := range rec.Ran() {
		if n := rec.Nodes[i]; n.Outcome != timeline.OK || len(n.Limits) != 1 {
			t.Errorf("%s: outcome %s, limits %v", n.Label, n.Outcome, n.Limits)
		}
	}
	if got := len(rec.CriticalPath()); got != 2 {
		t.Errorf("critical path of %d operations, want 2 (b waits for a)", got)
	}

	// An apply with nothing to do keeps the last record.
	if r = rig(t, dir, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("second apply: exit %d\n%s", r.code, r.stderr)
	}
	if readTimelineRecord(t, record).Command != "apply" || len(readTimelineRecord(t, record).Ran()) != 2 {
		t.Error("an apply with nothing to do replaced the record")
	}

	shown := filepath.Join(dir, "shown.html")
	if r = rig(t, dir, "show", "-timeline="+shown); r.code != 0 {
		t.Fatalf("show -timeline: exit %d\n%s", r.code, r.stderr)
	}
	if got, _ := os.ReadFile(shown); string(got) != string(b) {
		t.Error("show -timeline wrote another page than the apply's")
	}

	if r = rig(t, dir, "destroy", "-auto-approve", "-no-color", "-timeline="+filepath.Join(dir, "destroy.html")); r.code != 0 {
		t.Fatalf("destroy: exit %d\n%s", r.code, r.stderr)
	}
	if rec := readTimelineRecord(t, record); rec.Command != "destroy" || len(rec.Ran()) != 2 {
		t.Errorf("after destroy, the record is of %q with %d operations", rec.Command, len(rec.Ran()))
	}

	if r = rig(t, dir, "show", "-json", "-timeline="+shown); r.code != 1 {
		t.Errorf("show -json -timeline: exit %d, want 1", r.code)
	}

	// A saved plan's apply has its timeline too.
	if r = rig(t, dir, "plan", "-out=next.tfplan", "-no-color"); r.code != 0 {
		t.Fatalf("plan -out: exit %d\n%s", r.code, r.stderr)
	}
	saved := filepath.Join(dir, "saved.html")
	if r = rig(t, dir, "apply", "-no-color", "-timeline="+saved, "next.tfplan"); r.code != 0 {
		t.Fatalf("apply PLAN: exit %d\n%s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(saved); err != nil || strings.Count(string(b), `<rect class="bar`) != 2 {
		t.Errorf("the saved plan's timeline: %v, %d bars", err, strings.Count(string(b), `<rect class="bar`))
	}
}

func readTimelineRecord(t *testing.T, path string) *timeline.Record {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := timeline.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
