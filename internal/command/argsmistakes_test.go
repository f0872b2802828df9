package command

import (
	"strings"
	"testing"
)

// TestArgumentMistakes: the common mistakes of a command line (an
// argument too many, one missing) end as OpenTofu 1.12 ends them: the
// same exit status and the same error summary, and a mistake OpenTofu
// and Terraform let pass is a warning, not a failure.
func TestArgumentMistakes(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})
	tests := []struct {
		args    []string
		code    int
		summary string
	}{
		{[]string{"init", "extra"}, 1, "Error: Unexpected argument"},
		{[]string{"get", "extra"}, 1, "Error: Unexpected argument"},
		{[]string{"graph", "extra"}, 1, "Error: Unexpected argument"},
		{[]string{"providers", "a", "b"}, 1, "Error: Unexpected argument"},
		{[]string{"state", "pull", "extra"}, 1, "Error: Unexpected argument"},
		{[]string{"workspace", "list", "extra"}, 1, "Error: Unexpected argument"},
		{[]string{"workspace", "show", "extra"}, 1, "Error: Unexpected argument"},
		{[]string{"output", "a", "b"}, 1, "Error: Unexpected argument"},
		{[]string{"plan", "extra"}, 1, "Error: Too many command line arguments"},
		{[]string{"validate", "a", "b"}, 1, "Error: Too many command line arguments"},
		{[]string{"console", "extra"}, 1, "Error: Too many command line arguments"},
		{[]string{"force-unlock"}, 1, "Error: Wrong number of arguments"},
		{[]string{"force-unlock", "a", "b"}, 1, "Error: Wrong number of arguments"},
		{[]string{"providers", "mirror"}, 1, "Error: Wrong number of arguments"},
		{[]string{"import", "a"}, 1, "Error: Invalid number of arguments"},
		{[]string{"state", "push"}, 1, "Error: Invalid number of arguments"},
		{[]string{"state", "show", "a", "b"}, 1, "Error: Invalid number of arguments"},
		{[]string{"state", "mv", "a"}, 1, "Error: Invalid number of arguments"},
		{[]string{"state", "rm"}, 1, "Error: Invalid number of arguments"},
		{[]string{"taint"}, 1, "Error: Invalid arguments"},
		{[]string{"untaint", "a", "b"}, 1, "Error: Invalid arguments"},
		{[]string{"workspace", "new"}, 1, "Error: Invalid arguments list"},
		{[]string{"workspace", "select", "a", "b"}, 1, "Error: Invalid arguments list"},
		{[]string{"workspace", "delete"}, 1, "Error: Invalid arguments list"},
		{[]string{"providers", "schema"}, 1, "Error: Output only in json is allowed"},
		{[]string{"fmt", "nosuch.tf"}, 2, "Error: Invalid file or directory path"},
		{[]string{"plan", "-var-file=nosuch.tfvars"}, 1, "Error: Failed to read variables file\n\nGiven variables file nosuch.tfvars does not exist.\n"},
		// Ignored by OpenTofu and Terraform: rig warns and goes on.
		{[]string{"version", "extra"}, 0, "Warning: Unexpected argument"},
		{[]string{"test", "tests"}, 0, "Warning: Unexpected argument"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := rig(t, dir, append(tt.args, "-no-color")...)
			if r.code != tt.code || !strings.Contains(r.stderr+r.stdout, tt.summary) {
				t.Errorf("exit %d, want %d with %q\nstdout: %s\nstderr: %s", r.code, tt.code, tt.summary, r.stdout, r.stderr)
			}
		})
	}
}

// TestPlanFileArgumentMistakes: a saved plan given to destroy, or a
// directory or a file that is not a plan given to apply, is explained as
// OpenTofu explains it.
func TestPlanFileArgumentMistakes(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`, "sub/main.tf": ""})
	if r := rig(t, dir, "plan", "-destroy", "-out=d.plan", "-no-color"); r.code != 0 {
		t.Fatalf("plan -destroy -out: exit %d\n%s", r.code, r.stderr)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"destroy", "d.plan"}, "Error: Destroy can't be called with a plan file\n\nIf this plan was created using plan -destroy, apply it using:\n  rig apply \"d.plan\""},
		{[]string{"destroy", "sub"}, "Error: Failed to load \"sub\" as a plan file\n\nThe specified path is a directory, not a plan file. You can use the global\n-chdir flag"},
		{[]string{"apply", "sub"}, "Error: Failed to load \"sub\" as a plan file\n\nThe specified path is a directory, not a plan file."},
		{[]string{"apply", "nosuch.plan"}, "Error: Failed to load \"nosuch.plan\" as a plan file"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := rig(t, dir, append(tt.args, "-no-color")...)
			if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, want 1 with %q\n%s%s", r.code, tt.want, r.stdout, r.stderr)
			}
		})
	}
}

// TestGroupCommandMistakes: a command with subcommands given none, or an
// option where the subcommand goes, shows its help and exits 1; extra
// arguments to metadata functions -json are ignored with a warning, the
// document unspoiled, as both tools ignore them.
func TestGroupCommandMistakes(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"state"}, {"state", "-no-color"}, {"workspace", "-json"}} {
		r := rig(t, dir, args...)
		if r.code != 1 || !strings.HasPrefix(r.stderr, "Usage: rig [global options] "+args[0]+" <subcommand>") {
			t.Errorf("rig %s: exit %d, want 1 and the group's help\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	r := rig(t, dir, "metadata", "functions", "-json", "-no-color", "extra")
	if r.code != 0 || !strings.HasPrefix(r.stdout, `{"format_version":`) || !strings.Contains(r.stderr, "Warning: Unexpected argument") {
		t.Errorf("metadata functions -json extra: exit %d\n%.200s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestPlanOutIntoMissingDirectory: a plan that cannot be saved where -out
// says fails as OpenTofu's does.
func TestPlanOutIntoMissingDirectory(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})
	r := rig(t, dir, "plan", "-no-color", "-out=nodir/p.plan")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Failed to write plan file\n\nThe plan file could not be written: ") {
		t.Fatalf("plan -out=nodir/p.plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
