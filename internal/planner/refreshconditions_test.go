package planner_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// TestRefreshOnlyEvaluatesConditions: a refresh-only plan evaluates each
// resource's preconditions and postconditions against the refreshed
// object, as OpenTofu does; a failure is a warning.
func TestRefreshOnlyEvaluatesConditions(t *testing.T) {
	const tmpl = `
resource "test_thing" "a" {
  count = 2
  key   = "a${count.index}"
  value = "v"
  lifecycle {
    precondition {
      condition     = count.index < LIMIT
      error_message = "index ${count.index} too high"
    }
    postcondition {
      condition     = self.value == "WANT"
      error_message = "value of ${self.key} is ${self.value}"
    }
  }
}`
	src := func(limit, want string) string {
		return strings.NewReplacer("LIMIT", limit, "WANT", want).Replace(tmpl)
	}
	live := providertest.New()
	prior := applyAll(t, live, loadTree(t, map[string]string{"main.tf": src("2", "v")}))
	set := providerSet(live)
	defer set.Close()
	for _, tt := range []struct {
		name, limit, want string
		wantWarnings      []string
	}{
		{name: "conditions hold", limit: "2", want: "v"},
		{name: "postconditions fail", limit: "2", want: "w", wantWarnings: []string{"value of a0 is v", "value of a1 is v"}},
		{name: "a precondition fails", limit: "1", want: "v", wantWarnings: []string{"index 1 too high"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := planner.Make(context.Background(), loadTree(t, map[string]string{"main.tf": src(tt.limit, tt.want)}), prior, set,
				planner.Options{Mode: plan.RefreshOnlyMode, Now: func() time.Time { return fixedNow }})
			if ds.HasErrors() {
				t.Fatalf("a failed condition is an error in a refresh-only plan: %v", ds.Err())
			}
			var got []string
			for _, d := range ds {
				if d.Severity == diag.Warning {
					got = append(got, d.Detail)
				}
			}
			if strings.Join(got, "|") != strings.Join(tt.wantWarnings, "|") {
				t.Errorf("warnings %q, want %q", got, tt.wantWarnings)
			}
		})
	}
}
