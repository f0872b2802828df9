package command

import "testing"

// Selecting or deleting a workspace that does not exist fails with
// OpenTofu's words, line break included, for both.
func TestWorkspaceThatDoesNotExist(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": ""})
	want := "\nError: Workspace \"nope\" doesn't exist\n\nYou can create this workspace with the \"new\" subcommand \nor include the \"-or-create\" flag with the \"select\" subcommand.\n\n"
	for _, sub := range []string{"select", "delete"} {
		if r := rig(t, dir, "workspace", sub, "-no-color", "nope"); r.code != 1 || r.stderr != want || r.stdout != "" {
			t.Errorf("workspace %s nope: exit %d\nstdout:\n%s\nstderr:\n%q\nwant:\n%q", sub, r.code, r.stdout, r.stderr, want)
		}
	}
}
