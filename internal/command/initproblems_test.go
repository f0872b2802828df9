package command

import (
	"strings"
	"testing"
)

// TestInitConfigProblemsHeading: when the configuration's own errors stop
// init, it says first, on standard error, that the configuration must be
// valid for it to know what to install, as OpenTofu 1.12 says it (an
// "error" message of its own in the -json stream); errors of what it
// installs or of the backend's settings come without it.
func TestInitConfigProblemsHeading(t *testing.T) {
	const heading = "\nrig encountered problems during initialization, including problems\nwith the configuration, described below.\n\n" +
		"The rig configuration must be valid before initialization so that\nrig can determine which modules and providers need to be installed.\n"
	tests := []struct {
		name        string
		files       map[string]string
		args        []string
		wantHeading bool
		wantError   string
	}{
		{name: "syntax error", files: map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {\n  input =\n}\n"},
			wantHeading: true, wantError: "Error: Invalid expression"},
		{name: "syntax error without modules installed", files: map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {\n  input =\n}\n"},
			args: []string{"-get=false"}, wantHeading: true, wantError: "Error: Invalid expression"},
		{name: "syntax error beside a module call", files: map[string]string{"main.tf": "module \"m\" {\n  source = \"./m\"\n}\n\nlocals {\n  a = \n}\n", "m/main.tf": ""},
			wantHeading: true, wantError: "Error: Invalid expression"},
		{name: "module directory missing", files: map[string]string{"main.tf": "module \"m\" {\n  source = \"./nonexistent\"\n}\n"},
			wantError: "Error: Unreadable module directory"},
		{name: "backend setting unknown", files: map[string]string{"main.tf": "terraform {\n  backend \"local\" {\n    bogus = 1\n  }\n}\n"},
			wantError: "Error: Unsupported argument"},
		{name: "provider not found", files: map[string]string{"main.tf": "terraform {\n  required_providers {\n    nope = { source = \"example.com/x/nope\" }\n  }\n}\n"},
			args: []string{"-plugin-dir=empty"}, wantError: "Error: Failed to query available provider packages"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"empty/.keep": ""}
			for name, src := range tt.files {
				files[name] = src
			}
			dir := workDir(t, files)
			r := rig(t, dir, append([]string{"init", "-no-color"}, tt.args...)...)
			if r.code != 1 || !strings.Contains(r.stderr, tt.wantError) {
				t.Fatalf("exit %d, want 1 with %q\nstdout:\n%s\nstderr:\n%s", r.code, tt.wantError, r.stdout, r.stderr)
			}
			if got := strings.HasPrefix(r.stderr, heading+"\n"+tt.wantError); got != tt.wantHeading {
				t.Errorf("stderr starts with the heading and then the error: %v, want %v\nstderr:\n%s", got, tt.wantHeading, r.stderr)
			}
			if strings.Contains(r.stdout, "encountered problems") {
				t.Errorf("the heading is on stdout:\n%s", r.stdout)
			}

			r = rig(t, dir, append([]string{"init", "-json"}, tt.args...)...)
			lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
			var messages []string
			for _, l := range lines {
				if strings.Contains(l, `"@level":"error"`) {
					messages = append(messages, l)
				}
			}
			gotHeading := len(messages) > 0 && strings.Contains(messages[0], `"@message":"rig encountered problems during initialization, including problems with the configuration, described below. The rig configuration must be valid before initialization so that rig can determine which modules and providers need to be installed."`) &&
				!strings.Contains(messages[0], `"type"`)
			if gotHeading != tt.wantHeading || r.code != 1 {
				t.Errorf("-json: exit %d, heading message first %v, want %v\n%s", r.code, gotHeading, tt.wantHeading, r.stdout)
			}
		})
	}
}

// TestInitDiagnosticsSeparated: init follows each diagnostic with a blank
// line, as OpenTofu's init does: after the last error, and between the
// warnings and the success message, which comes after one blank line.
func TestInitDiagnosticsSeparated(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {\n  input =\n}\n"})
	r := rig(t, dir, "init", "-no-color")
	if r.code != 1 || !strings.HasSuffix(r.stderr, "found an invalid expression token.\n\n") {
		t.Errorf("exit %d, want 1 and a blank line after the error:\n%q", r.code, r.stderr)
	}

	dir = workDir(t, map[string]string{"main.tf": "module \"m\" {\n  source = \"./m\"\n}\n",
		"m/main.tf": "terraform {\n  required_providers {\n    terraform = { source = \"terraform.io/builtin/terraform\" }\n  }\n}\n\nprovider \"terraform\" {}\n"})
	r = rig(t, dir, "init", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "Warning: Redundant empty provider block") {
		t.Fatalf("no warning: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "\n    }\n\nrig has been successfully initialized!\n") {
		t.Errorf("not one blank line between the warning and the success:\n%s", r.stdout)
	}
}
