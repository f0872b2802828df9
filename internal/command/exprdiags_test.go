package command

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/txtartest"
)

// TestExpressionDiagnostics runs the scenarios of
// testdata/exprdiags/*.txtar: each line of the args section is run in turn
// in one working directory, as `rig LINE -no-color`, and the want section
// is what each printed. An error of an expression shows, as OpenTofu's
// does, the function whose call failed ("while calling f(params)") and the
// values of the expression's references, never a sensitive or an
// ephemeral one.
func TestExpressionDiagnostics(t *testing.T) {
	txtartest.Run(t, filepath.Join("testdata", "exprdiags", "*.txtar"), func(t *testing.T, path string, ar *txtar.Archive) {
		files := txtartest.Files(ar, "args", "want")
		dir := workDir(t, files)
		var out strings.Builder
		for _, line := range strings.Split(strings.TrimSpace(txtartest.Files(ar)["args"]), "\n") {
			r := rig(t, dir, append(strings.Fields(line), "-no-color", "-input=false")...)
			fmt.Fprintf(&out, "$ rig %s\nexit %d\nstdout:\n%sstderr:\n%s\n", line, r.code, r.stdout, r.stderr)
		}
		txtartest.Check(t, path, ar, "want", normalize(out.String()), *update)
	})
}
