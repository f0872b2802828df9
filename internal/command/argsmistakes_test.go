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
