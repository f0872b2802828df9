package command

import (
	"strings"
	"testing"
)

// The graph of a plan marks the deletes it refuses for a protection the
// state records, and the objects whose protection is recorded, so a CI
// user sees on the page why the plan cannot be applied; the graph command
// draws a plan refused for those alone, and still fails.
func TestProtectionOnGraph(t *testing.T) {
	dir := workDir(t, protectedConfig)
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	// a's block gone, b's count down to one (b[0] resized: an update of a
	// protected object), the module removed.
	writeFile(t, dir, "main.tf", protectProviders+`resource "test_thing" "b" {
  count = 1
  name  = "b${count.index}"
  size  = 2
  lifecycle {
    prevent_destroy = true
  }
}
resource "test_thing" "c" {
  name = "c"
}
`)
	// The plan is still refused (exit 1, its errors shown), and drawn.
	r := rig(t, dir, "graph", "-type=plan", "-format=svg", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Resource instance cannot be destroyed") || !strings.HasPrefix(r.stdout, "<svg") {
		t.Fatalf("graph of a plan with refused destroys: exit %d\n%.300s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := strings.Count(r.stdout, `class="refused"`); got != 3 {
		t.Errorf("%d refused deletes outlined, want 3 (a, b[1], module.m's d)", got)
	}
	if got := strings.Count(r.stdout, `class="protected"`); got != 4 {
		t.Errorf("%d padlocks, want 4 (the 3 refused deletes and b[0]'s update)", got)
	}
	r = rig(t, dir, "graph", "-type=plan", "-format=html", "-no-color")
	for _, want := range []string{`"refused":"main.tf:9"`, `"protected":"main.tf:11"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the page's data lacks %s: %s", want, r.stdout[max(0, strings.Index(r.stdout, "protected")-200):][:400])
		}
	}
}

// A replacement the configuration's prevent_destroy refuses does not hide
// the deletes a recorded protection refuses: the plan lists every refusal.
func TestRefusedReplacementKeepsOtherRefusals(t *testing.T) {
	dir := workDir(t, protectedConfig)
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	writeFile(t, dir, "main.tf", protectProviders+`resource "test_thing" "b" {
  count = 1
  name  = "b${count.index}-renamed"
  lifecycle {
    prevent_destroy = true
  }
}
resource "test_thing" "c" {
  name = "c"
}
`)
	r := rig(t, dir, "plan", "-no-color")
	if r.code != 1 {
		t.Fatalf("plan: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	got := oneLine(r.stdout + r.stderr)
	checkContains(t, "plan", got,
		"# test_thing.a will be destroyed",
		"# module.m.test_thing.d will be destroyed",
		"# test_thing.b[1] will be destroyed",
		"3 of these destroys are refused",
		"Resource instance test_thing.b[0] has prevent_destroy set, but the plan calls for it to be destroyed.",
	)
}
