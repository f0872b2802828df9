package command

import (
	"strings"
	"testing"
)

// TestDiagnosticsSeparatedByCommand: the commands whose OpenTofu
// counterparts follow each diagnostic with a blank line (init, get, the
// state and workspace commands that change or show one thing, …) do so,
// the others (validate, plan, state list) do not, and a command line a
// command cannot run is reported as before either way.
func TestDiagnosticsSeparatedByCommand(t *testing.T) {
	const bad = "resource \"terraform_data\" \"a\" {\n  input =\n}\n"
	tests := []struct {
		name          string
		files         map[string]string
		args          []string
		wantSeparated bool
	}{
		{"workspace select", map[string]string{"main.tf": ""}, []string{"workspace", "select", "nope"}, true},
		{"get", map[string]string{"main.tf": bad}, []string{"get"}, true},
		{"graph", map[string]string{"main.tf": bad}, []string{"graph"}, true},
		{"validate", map[string]string{"main.tf": bad}, []string{"validate"}, false},
		{"plan", map[string]string{"main.tf": bad}, []string{"plan"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workDir(t, tt.files)
			r := rig(t, dir, append(tt.args, "-no-color")...)
			if r.code != 1 || !strings.Contains(r.stderr, "Error: ") {
				t.Fatalf("exit %d, want 1 with an error\n%s%s", r.code, r.stdout, r.stderr)
			}
			if got := strings.HasSuffix(r.stderr, ".\n\n"); got != tt.wantSeparated {
				t.Errorf("the error is followed by a blank line: %v, want %v\n%q", got, tt.wantSeparated, r.stderr)
			}
		})
	}
	dir := workDir(t, map[string]string{"main.tf": ""})
	r := rig(t, dir, "workspace", "select", "-no-color", "-nope", "x")
	if r.code != 1 || !strings.HasSuffix(r.stderr, "-nope\n\n") || !strings.HasPrefix(r.stdout, "Usage: rig [global options] workspace select") {
		t.Errorf("a flag mistake: exit %d, want 1, the error followed by a blank line and the help on stdout\n%q\n%q", r.code, r.stderr, r.stdout)
	}
	r = rig(t, dir, "plan", "-no-color", "-nope")
	if want := "\nFor more help on using this command, run:\n  rig plan -help\n"; r.code != 1 || !strings.Contains(r.stderr, "-nope\n"+want) || r.stdout != "" {
		t.Errorf("a flag mistake: exit %d, want 1 and the error then %q\n%q", r.code, want, r.stderr)
	}
}
