package command

import (
	"strings"
	"testing"
)

// validate DIR validates the configuration in DIR, as OpenTofu does; a
// directory that is not there, or a second argument, is an error.
func TestValidateDirectoryArgument(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf":     "output \"ok\" {\n  value = 1\n}\n",
		"sub/main.tf": "output \"x\" {\n  value = nope\n}\n",
	})
	if r := rig(t, dir, "validate", "-no-color", "."); r.code != 0 || !strings.Contains(r.stdout, "Success!") {
		t.Errorf("validate .: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "validate", "-no-color", "sub"); r.code != 1 || !strings.Contains(r.stderr, "Error: Invalid reference\n\n  on sub/main.tf line 2, in output \"x\":") {
		t.Errorf("validate sub: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "validate", "-no-color", "nope"); r.code != 1 || r.stderr != "\nError: Failed to read module directory\n\nModule directory nope does not exist or cannot be read.\n" {
		t.Errorf("validate nope: exit %d\n%q", r.code, r.stderr)
	}
	if r := rig(t, dir, "validate", "-no-color", "a", "b"); r.code != 1 || !strings.Contains(r.stderr, "Error: Too many command line arguments") {
		t.Errorf("validate a b: exit %d\n%s", r.code, r.stderr)
	}
}
