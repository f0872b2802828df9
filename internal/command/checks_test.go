package command

import (
	"strings"
	"testing"
)

// TestCheckFailureDoesNotFailApply: failing check assertions are warnings
// at plan and at apply; the apply succeeds (exit 0) and records the
// objects.
func TestCheckFailureDoesNotFailApply(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {
  input = "a"
}
check "id" {
  assert {
    condition     = terraform_data.a.id == "expected"
    error_message = "Unexpected id ${terraform_data.a.id}."
  }
}
`})
	r := rig(t, dir, "plan", "-no-color", "-input=false")
	if r.code != 0 {
		t.Fatalf("plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"Warning: Check block assertion known after apply",
	} {
		if !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("plan output lacks %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}

	r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	out := normalize(r.stdout + r.stderr)
	for _, want := range []string{"Apply complete!", "Warning: Check block assertion failed", "Unexpected id id-N."} {
		if !strings.Contains(out, want) {
			t.Errorf("apply output lacks %q:\n%s", want, out)
		}
	}
	sf, _ := readStateFile(t, dir)
	if got := instanceCount(sf); got != 1 {
		t.Errorf("state has %d instances, want 1", got)
	}
}
