package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// A plugin cache directory that does not exist is an error among the CLI
// configuration's problems, worded and placed as OpenTofu 1.12 does, and
// the command goes on and succeeds.
func TestMissingPluginCacheDirStopsNothing(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TF_CLI_CONFIG_FILE", "")
	t.Setenv("TOFU_CLI_CONFIG_FILE", "")
	t.Setenv("TERRAFORM_CONFIG", "")
	missing := filepath.Join(t.TempDir(), "cache")
	t.Setenv("TF_PLUGIN_CACHE_DIR", missing)
	dir := workDir(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {}\n"})
	want := "There are some problems with the CLI configuration:\n\n" +
		"Error: The specified plugin cache dir " + missing + " cannot be opened: stat " + missing + ": no such file or directory\n\n" +
		"As a result of the above problems, rig may not behave as intended.\n\n\n"
	// Never in color, as OpenTofu shows them before it reads -no-color.
	for _, args := range [][]string{{"init", "-no-color"}, {"validate", "-no-color"}, {"plan", "-no-color"}, {"validate"}} {
		r := rig(t, dir, args...)
		if r.code != 0 || r.stderr != want {
			t.Errorf("rig %s: exit %d\nstderr:\n%s\nwant:\n%s", strings.Join(args, " "), r.code, r.stderr, want)
		}
	}
}
