package command

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/txtartest"
)

// TestInitWarnsOfLocallyHashedLocks runs init, as OpenTofu and Terraform
// run it, with the providers of a CLI configuration's filesystem_mirror:
// the lock file it writes holds only the checksums computed here, and
// init warns "Incomplete lock file information for providers", naming
// them and how to add the other platforms' (text and -json). An init that
// changes nothing in the lock file does not warn again.
func TestInitWarnsOfLocallyHashedLocks(t *testing.T) {
	mirror := testProviderMirror(t)
	cli := filepath.Join(t.TempDir(), "rig.tfrc")
	writeFile(t, filepath.Dir(cli), filepath.Base(cli), fmt.Sprintf(`
provider_installation {
  filesystem_mirror {
    path = %q
  }
}
`, mirror))
	t.Setenv("TF_CLI_CONFIG_FILE", cli)
	txtartest.Run(t, filepath.Join("testdata", "initlocks", "*.txtar"), func(t *testing.T, path string, ar *txtar.Archive) {
		files := txtartest.Files(ar, "want", "want.json")
		var out strings.Builder
		dir := workDir(t, files)
		for range 2 {
			r := rig(t, dir, "init", "-no-color")
			fmt.Fprintf(&out, "$ rig init\nexit %d\nstdout:\n%sstderr:\n%s\n", r.code, r.stdout, r.stderr)
		}
		txtartest.Check(t, path, ar, "want", normalize(out.String()), *update)
		r := rig(t, workDir(t, files), "init", "-json")
		txtartest.Check(t, path, ar, "want.json", normalize(fmt.Sprintf("exit %d\nstdout:\n%sstderr:\n%s", r.code, r.stdout, r.stderr)), *update)
	})
}

// TestInitDevOverridesWarning: init, which installs nothing for a
// provider dev_overrides names, warns in its own words, as OpenTofu and
// Terraform do: init is not needed for it.
func TestInitDevOverridesWarning(t *testing.T) {
	pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_thing" "a" {
  name = "a"
}
`})
	r := rig(t, dir, "init", "-no-color")
	want := "Warning: Provider development overrides are in effect\n\nThe following provider development overrides are set in the CLI\nconfiguration:\n - rig/test in TMPDIR\n\nSkip rig init when using provider development overrides. It is not necessary\nand may error unexpectedly.\n"
	if got := normalize(r.stdout); r.code != 0 || !strings.Contains(got, want) {
		t.Errorf("init: exit %d, want 0 and\n%s\nin:\n%s%s", r.code, want, got, r.stderr)
	}
}
