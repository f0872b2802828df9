package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmptyDirectory runs the commands in a directory without any
// configuration file, as OpenTofu runs them: init and validate succeed
// (init writes nothing), a destroy has nothing to do, and plan, apply,
// import and providers fail with OpenTofu's reasons.
func TestEmptyDirectory(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args   []string
		code   int
		stdout string // a part of stdout
		stderr string // a part of stderr
	}{
		{[]string{"init", "-no-color"}, 0, "rig initialized in an empty directory!\n\nThe directory has no rig configuration files.", ""},
		{[]string{"validate", "-no-color"}, 0, "Success! The configuration is valid.", ""},
		{[]string{"validate", "-json"}, 0, `"valid":true`, ""},
		{[]string{"plan", "-no-color", "-input=false"}, 1, "", "Error: No configuration files\n\nPlan requires configuration to be present."},
		{[]string{"apply", "-no-color", "-input=false", "-auto-approve"}, 1, "", "Error: No configuration files\n\nApply requires configuration to be present."},
		{[]string{"providers", "-no-color"}, 1, "", "Error: No configuration files"},
		{[]string{"import", "-no-color", "-input=false", "terraform_data.a", "x"}, 1, "", "Error: No configuration files"},
		{[]string{"plan", "-destroy", "-no-color", "-input=false"}, 0, "No changes. No objects need to be destroyed.", ""},
		{[]string{"destroy", "-no-color", "-input=false", "-auto-approve"}, 0, "Destroy complete! Resources: 0 destroyed.", ""},
	}
	for i, tt := range tests {
		r := rig(t, dir, tt.args...)
		if r.code != tt.code || !strings.Contains(r.stdout, tt.stdout) || !strings.Contains(r.stderr, tt.stderr) {
			t.Errorf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tt.args, " "), r.code, tt.code, r.stdout, r.stderr)
		}
		if i == 0 {
			if _, err := os.Stat(filepath.Join(dir, ".terraform")); err == nil {
				t.Error("init in an empty directory wrote .terraform")
			}
		}
	}
}
