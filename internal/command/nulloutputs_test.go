package command

import (
	"strings"
	"testing"
)

// TestNullOutputsAreNotRecorded checks that a root output whose value is
// (or becomes) null is dropped from the state and from output, as OpenTofu
// drops it: output NAME then fails for it, except that with no output at
// all the human and raw forms only warn, as OpenTofu's do.
func TestNullOutputsAreNotRecorded(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": `variable "v" {
  default = "x"
}
output "o" {
  value = var.v
}
output "n" {
  value = null
}
`,
		"null.tfvars": "v = null\n",
	})
	if r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color"); r.code != 0 {
		t.Fatalf("apply: %s", r.stderr)
	}
	if sf, _ := readStateFile(t, dir); len(sf.Outputs) != 1 || sf.Outputs["o"] == nil {
		t.Fatalf("state outputs = %v, want only o", sf.Outputs)
	}
	if r := rig(t, dir, "output", "n"); r.code != 1 || !strings.Contains(r.stderr, `Output "n" not found`) {
		t.Errorf("output n: exit %d\n%s", r.code, r.stderr)
	}

	r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color", "-var-file=null.tfvars")
	if r.code != 0 {
		t.Fatalf("apply with o null: %s", r.stderr)
	}
	if !strings.Contains(r.stdout, `- o = "x" -> null`) || strings.Contains(r.stdout, "\nOutputs:") {
		t.Errorf("apply with o null shows:\n%s", r.stdout)
	}
	if sf, _ := readStateFile(t, dir); len(sf.Outputs) != 0 {
		t.Errorf("state outputs = %v, want none", sf.Outputs)
	}
	if r := rig(t, dir, "output", "-json"); r.code != 0 || strings.TrimSpace(r.stdout) != "{}" {
		t.Errorf("output -json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, args := range [][]string{{"output", "-no-color", "o"}, {"output", "-no-color", "-raw", "o"}, {"output", "-no-color"}} {
		if r := rig(t, dir, args...); r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "Warning: No outputs found") {
			t.Errorf("%s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	if r := rig(t, dir, "output", "-no-color", "-json", "o"); r.code != 1 || !strings.Contains(r.stderr, `Output "o" not found`) {
		t.Errorf("output -json o: exit %d\n%s", r.code, r.stderr)
	}
}
