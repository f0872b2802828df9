package command

import (
	"strings"
	"testing"

	goldenfile "github.com/rig-iac/rig/internal/golden"
)

// The graph of a plan draws the actions its changes fire and the opening
// and closing of its ephemeral resources as nodes of their own, ordered
// as apply runs them (testdata/graph/actions.dot, rewritten with
// -update); the page and the image name each new kind in their legend.
func TestGraphActionsAndEphemerals(t *testing.T) {
	actionsWorld(t)
	dir := workDir(t, map[string]string{"main.tf": activitiesConfig})
	r := mustRig(t, dir, "graph", "-type=plan")
	goldenfile.Check(t, "testdata/graph/actions.dot", r.stdout)
	for _, format := range []string{"svg", "html"} {
		r := mustRig(t, dir, "graph", "-type=plan", "-format="+format)
		for _, want := range []string{"action.test_log.after (after_create of test_thing.a)", "open ephemeral.test_token.t", "close ephemeral.test_token.t",
			"invoke-action", "open-ephemeral", "close-ephemeral"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("-format=%s lacks %q", format, want)
			}
		}
		if strings.Contains(r.stdout, "token-tok") {
			t.Errorf("-format=%s shows the token's secret", format)
		}
	}

	// An action -invoke names runs once every operation is done; a saved
	// plan of it draws it so.
	mustRig(t, dir, "plan", "-no-color", "-invoke=action.test_log.before", "-out=invoke.tfplan")
	r = mustRig(t, dir, "graph", "-plan=invoke.tfplan")
	if !strings.Contains(r.stdout, `[label="action.test_log.before (-invoke)", "color"="#0ca678", "shape"="cds"]`) {
		t.Errorf("the graph of a plan invoking an action lacks its node:\n%s", r.stdout)
	}
}
