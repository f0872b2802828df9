package command

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/txtartest"
)

// TestOpenTofuLanguageCases runs the scenarios of
// testdata/tofucorpus/*.txtar: small configurations that OpenTofu 1.12
// accepts or refuses when it loads or validates them, each with what rig
// must do in the same case. Each line of the args section is run in turn in
// one working directory, as `rig LINE -no-color`, and the want section is
// what each printed.
func TestOpenTofuLanguageCases(t *testing.T) {
	txtartest.Run(t, filepath.Join("testdata", "tofucorpus", "*.txtar"), func(t *testing.T, path string, ar *txtar.Archive) {
		dir := workDir(t, txtartest.Files(ar, "args", "want"))
		var out strings.Builder
		for _, line := range strings.Split(strings.TrimSpace(txtartest.Files(ar)["args"]), "\n") {
			r := rig(t, dir, append(strings.Fields(line), "-no-color")...)
			fmt.Fprintf(&out, "$ rig %s\nexit %d\nstdout:\n%sstderr:\n%s\n", line, r.code, r.stdout, r.stderr)
		}
		txtartest.Check(t, path, ar, "want", normalize(out.String()), *update)
	})
}
