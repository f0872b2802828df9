package command

import (
	"strings"
	"testing"
)

// state rm passes over an address that names nothing when another names
// something, and fails with OpenTofu's words when none does; state mv of
// what is not there is OpenTofu's "Invalid source address".
func TestStateRmAndMvOfWhatIsNotThere(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"b\" {}\n"})
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	r := rig(t, dir, "state", "rm", "-no-color", "terraform_data.nope")
	want := "\nError: Invalid target address\n\nNo matching objects found. To view the available instances, use \"rig state\nlist\". Please modify the address to reference a specific instance.\n\n"
	if r.code != 1 || r.stderr != want {
		t.Errorf("state rm of nothing: exit %d\n%q\nwant\n%q", r.code, r.stderr, want)
	}
	r = rig(t, dir, "state", "mv", "-no-color", "terraform_data.nope", "terraform_data.c")
	want = "\nError: Invalid source address\n\nCannot move terraform_data.nope: does not match anything in the current\nstate.\n\n"
	if r.code != 1 || r.stderr != want {
		t.Errorf("state mv of nothing: exit %d\n%q\nwant\n%q", r.code, r.stderr, want)
	}
	r = rigOK(t, dir, "state", "rm", "-no-color", "terraform_data.nope", "terraform_data.a")
	if !strings.Contains(r.stdout, "Removed terraform_data.a") {
		t.Errorf("state rm of nothing and of terraform_data.a:\n%s", r.stdout)
	}
	if r := rigOK(t, dir, "state", "list"); r.stdout != "terraform_data.b\n" {
		t.Errorf("state list after state rm:\n%s", r.stdout)
	}
}
