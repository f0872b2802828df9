package command

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/txtartest"
)

// TestOperationsValidateFirst runs the scenarios of
// testdata/validatefirst/*.txtar with the plugin test provider (a
// development override): each line of the args section is run in turn in
// one working directory, as `rig LINE -no-color`, and the want section is
// what each printed. As OpenTofu, plan, apply, destroy and refresh check
// the configuration as `rig validate` does before planning: an error a
// block without instances or a root output has stops them with only that
// error; and plan, apply and destroy warn about the development override
// before anything else, refresh and import not at all.
func TestOperationsValidateFirst(t *testing.T) {
	pluginWorld(t)
	txtartest.Run(t, filepath.Join("testdata", "validatefirst", "*.txtar"), func(t *testing.T, path string, ar *txtar.Archive) {
		files := txtartest.Files(ar, "args", "want")
		dir := workDir(t, files)
		var out strings.Builder
		for _, line := range strings.Split(strings.TrimSpace(txtartest.Files(ar)["args"]), "\n") {
			r := rig(t, dir, append(strings.Fields(line), "-no-color")...)
			fmt.Fprintf(&out, "$ rig %s\nexit %d\nstdout:\n%sstderr:\n%s\n", line, r.code, r.stdout, r.stderr)
		}
		txtartest.Check(t, path, ar, "want", normalize(out.String()), *update)
	})
}
