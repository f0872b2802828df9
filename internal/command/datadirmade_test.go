package command

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// init makes the data directory only for what it puts there, as OpenTofu
// does: a configuration with nothing to install leaves no directory, and
// one with a backend, a module or a provider leaves that alone.
func TestInitDataDirHoldsOnlyWhatIsInstalled(t *testing.T) {
	mirror := testProviderMirror(t)
	const backend = "terraform {\n  backend \"local\" {\n    path = \"x.tfstate\"\n  }\n}\n"
	const module = "module \"m\" {\n  source = \"./m\"\n}\n"
	const plugin = "terraform {\n  required_providers {\n    test = { source = \"rig/test\" }\n  }\n}\n"
	for _, tc := range []struct {
		name  string
		main  string
		flags []string
		want  []string // the data directory's entries, nil for no directory
	}{
		{name: "empty file", main: ""},
		{name: "built-in provider only", main: "resource \"terraform_data\" \"a\" {}\n"},
		{name: "backend", main: backend, want: []string{"terraform.tfstate"}},
		{name: "module", main: module, want: []string{"modules"}},
		{name: "plugin provider", main: plugin, flags: []string{"-plugin-dir=" + mirror}, want: []string{"plugin_path", "providers"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := workDir(t, map[string]string{"main.tf": tc.main, "m/main.tf": ""})
			t.Setenv("TF_DATA_DIR", "ci-data")
			r := rig(t, dir, append([]string{"init", "-no-color"}, tc.flags...)...)
			if r.code != 0 {
				t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			entries, err := os.ReadDir(filepath.Join(dir, "ci-data"))
			if tc.want == nil {
				if !os.IsNotExist(err) {
					t.Errorf("init made the data directory (%v): %v", err, entries)
				}
				return
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.Name())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("the data directory holds %s, want %s", strings.Join(got, ", "), strings.Join(tc.want, ", "))
			}
		})
	}
}
