package command

import (
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
	checkContains(t, "plan output", r.stdout+r.stderr,
		"Warning: Check block assertion known after apply",
	)

	r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	out := normalize(r.stdout + r.stderr)
	checkContains(t, "apply output", out, "Apply complete!", "Warning: Check block assertion failed", "Unexpected id id-N.")
	sf, _ := readStateFile(t, dir)
	if got := instanceCount(sf); got != 1 {
		t.Errorf("state has %d instances, want 1", got)
	}
}
