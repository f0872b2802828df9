package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/txtartest"
	"golang.org/x/tools/txtar"
)

// TestValidateAsksProviders runs `rig validate`, as text and as -json, on
// the scenarios of testdata/validateproviders: each block kind handed to
// the plugin test provider's validation call, which refuses some values
// as a real provider's validators do. The want section is the exit code
// and what was printed; the json section is the -json document.
func TestValidateAsksProviders(t *testing.T) {
	pluginWorld(t)
	txtartest.Run(t, "testdata/validateproviders/*.txtar", func(t *testing.T, path string, ar *txtar.Archive) {
		files := map[string]string{}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".tf") {
				files[f.Name] = string(f.Data)
			}
		}
		dir := workDir(t, files)
		r := rig(t, dir, "validate", "-no-color")
		txtartest.Check(t, path, ar, "want", normalize(fmt.Sprintf("exit %d\nstdout:\n%sstderr:\n%s", r.code, r.stdout, r.stderr)), *update)

		r = rig(t, dir, "validate", "-json")
		var doc bytes.Buffer
		if err := json.Indent(&doc, []byte(r.stdout), "", "  "); err != nil {
			t.Fatalf("validate -json printed no JSON document (%v):\n%s", err, r.stdout)
		}
		if r.stderr != "" {
			t.Errorf("validate -json wrote to stderr:\n%s", r.stderr)
		}
		txtartest.Check(t, path, ar, "json", normalize(fmt.Sprintf("exit %d\n%s\n", r.code, doc.String())), *update)
	})
}
