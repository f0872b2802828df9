package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModuleNotInstalledDiagnostics checks the errors for a module call
// that does not match what init installed, worded as OpenTofu words them.
func TestModuleNotInstalledDiagnostics(t *testing.T) {
	const manifest = `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
		`{"Key":"r","Source":"example.com/acme/thing/aws","Version":"1.0.0","Dir":".terraform/modules/r"}]}`
	tests := []struct {
		name, call string
		installed  bool // the manifest and the module's directory exist
		removed    bool // the manifest exists, not the directory
		want       string
	}{
		{
			name: "never installed",
			call: `source = "example.com/acme/thing/aws"`,
			want: "Error: Module not installed\n\n  on main.tf line 1:\n   1: module \"r\" {\n\nThis module is not yet installed. Run \"rig init\" to install all modules\nrequired by this configuration.",
		},
		{
			name: "directory gone", removed: true,
			call: `source = "example.com/acme/thing/aws"`,
			want: "Error: Module not installed\n\n  on main.tf line 1:\n   1: module \"r\" {\n\nThis module's local cache directory .terraform/modules/r could not be read.\nRun \"rig init\" to install all modules required by this configuration.",
		},
		{
			name: "source changed", installed: true,
			call: `source = "example.com/acme/other/aws"`,
			want: "Error: Module source has changed\n\n  on main.tf line 2, in module \"r\":\n   2: source = \"example.com/acme/other/aws\"\n\nThe source address was changed from \"example.com/acme/thing/aws\" to\n\"example.com/acme/other/aws\" since this module was installed.",
		},
		{
			name: "version no longer allowed", installed: true,
			call: "source = \"example.com/acme/thing/aws\"\nversion = \"~> 2.0\"",
			want: "Error: Module version requirements have changed\n\n  on main.tf line 2, in module \"r\":\n   2: source = \"example.com/acme/thing/aws\"\n\nThe version requirements have changed since this module was installed and the\ninstalled version (1.0.0) is no longer acceptable.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "main.tf", "module \"r\" {\n"+tt.call+"\n}\n")
			if tt.installed || tt.removed {
				if err := os.MkdirAll(filepath.Join(dir, ".terraform", "modules"), 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, dir, ".terraform/modules/modules.json", manifest)
			}
			if tt.installed {
				if err := os.MkdirAll(filepath.Join(dir, ".terraform", "modules", "r"), 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, dir, ".terraform/modules/r/main.tf", "")
			}
			r := rig(t, dir, "validate", "-no-color")
			if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("validate: exit %d\n%s\nwant:\n%s", r.code, r.stderr, tt.want)
			}
		})
	}
}

// TestValidateWarnings checks validate's closing line when the
// configuration is valid with warnings (here OpenTofu's about a child
// module's empty provider block), as OpenTofu words it.
func TestValidateWarnings(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "main.tf", "module \"m\" { source = \"./m\" }\n")
	if err := os.Mkdir(filepath.Join(dir, "m"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "m/main.tf", "provider \"terraform\" {}\nresource \"terraform_data\" \"a\" {}\n")
	r := rig(t, dir, "validate", "-no-color")
	if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, "\nWarning: Redundant empty provider block") ||
		!strings.HasSuffix(r.stdout, "\nSuccess! The configuration is valid, but there were some validation warnings\nas shown above.\n") {
		t.Errorf("validate: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}
