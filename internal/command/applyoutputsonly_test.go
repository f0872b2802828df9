package command

import "testing"

// An approved apply that only changes outputs goes from the plan to
// "Apply complete!" after one blank line, as OpenTofu's does.
func TestApplyOfOutputsOnly(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "output \"z\" {\n  value = \"zz\"\n}\n"})
	r := rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	want := `
Changes to Outputs:
  + z = "zz"

You can apply this plan to save these new output values to the rig state,
without changing any real infrastructure.

Apply complete! Resources: 0 added, 0 changed, 0 destroyed.

Outputs:

z = "zz"
`
	if r.stdout != want {
		t.Errorf("apply:\n%q\nwant\n%q", r.stdout, want)
	}
}
