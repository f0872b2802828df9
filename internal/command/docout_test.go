package command

import (
	"encoding/json"
	"strings"
	"testing"
)

// Commands whose standard output is a machine-readable document (JSON, a
// graph) write their warnings — here the test provider's development
// overrides — to standard error, so that the document stays whole.
func TestWarningsBesideDocuments(t *testing.T) {
	pluginWorld(t)
	dir := workDir(t, map[string]string{"main.tf": testFileProvider + `
resource "test_thing" "a" {
  name = "a"
}
output "o" { value = "x" }
`})
	r := mustRig(t, dir, "graph", "-type=plan")
	if !strings.HasPrefix(r.stdout, "digraph") || !strings.Contains(r.stdout, "test_thing.a") || !strings.HasSuffix(r.stdout, "}\n") {
		t.Errorf("graph: standard output\n%s\nstandard error\n%s", r.stdout, r.stderr)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	for _, args := range [][]string{
		{"explain", "-json", "test_thing.a"},
		{"show", "-json"},
		{"output", "-json"},
		{"providers", "schema", "-json"},
		{"version", "-json"},
	} {
		r := rig(t, dir, args...)
		if r.code != 0 || !json.Valid([]byte(r.stdout)) {
			t.Errorf("%v: exit %d, standard output not one JSON document:\n%s", args, r.code, r.stdout)
		}
	}
	// A human view keeps its warnings on standard output.
	if r := mustRig(t, dir, "plan", "-no-color"); !strings.Contains(r.stdout, "Warning: Provider development overrides are in effect") {
		t.Errorf("plan: standard output lacks the warning:\n%s", r.stdout)
	}
}
