package planner_test

import (
	"context"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// A plan that follows validation on the same loaded configuration
// (which keeps what it checked and built for that plan) reports what a
// plan alone would: reference errors again, and for a valid
// configuration the changes and the dependencies of its mode.
func TestPlanAfterValidateOnSameConfig(t *testing.T) {
	tests := []struct {
		name, src   string
		wantSummary string // the first error, "" for none
		wantChanges int
	}{{
		name:        "undeclared reference",
		src:         "resource \"test_thing\" \"a\" {\n  value = test_thing.missing.value\n}\n",
		wantSummary: "Reference to undeclared resource",
	}, {
		name:        "unknown provisioner",
		src:         "resource \"test_thing\" \"a\" {\n  value = \"x\"\n  provisioner \"nope\" {}\n}\n",
		wantSummary: "Failed to obtain provisioner schema",
	}, {
		name: "valid",
		src: "resource \"test_thing\" \"a\" {\n  value = \"x\"\n}\nresource \"test_thing\" \"b\" {\n  value = test_thing.a.value\n}\n" +
			"resource \"test_thing\" \"c\" {\n  value = test_thing.b.value\n}\n",
		wantChanges: 3,
	}}
	for _, tt := range tests {
		for _, mode := range []plan.DependencyMode{plan.TransitiveDependencies, plan.ReducedDependencies} {
			t.Run(fmt.Sprintf("%s/mode=%d", tt.name, mode), func(t *testing.T) {
				cfg, ds := config.LoadTreeFS(fstest.MapFS{"main.tf": {Data: []byte(tt.src), Mode: 0o644}}, config.TreeOptions{})
				if ds.HasErrors() {
					t.Fatalf("configuration does not load: %v", ds.Err())
				}
				set := providerSet(providertest.New())
				defer set.Close()
				validated := planner.Validate(context.Background(), cfg, set, planner.ValidateOptions{ForPlan: true, Dependencies: mode})
				if got := firstError(validated); got != tt.wantSummary {
					t.Errorf("validation's first error = %q, want %q", got, tt.wantSummary)
				}
				p, ds := planner.Make(context.Background(), cfg, state.New(), set, planner.Options{Mode: plan.NormalMode, Dependencies: mode})
				if got := firstError(ds); got != tt.wantSummary {
					t.Fatalf("plan's first error = %q, want %q", got, tt.wantSummary)
				}
				if tt.wantSummary != "" {
					return
				}
				if len(p.Changes) != tt.wantChanges {
					t.Errorf("plan has %d changes, want %d", len(p.Changes), tt.wantChanges)
				}
				want := "[test_thing.a test_thing.b]"
				if mode == plan.ReducedDependencies {
					want = "[test_thing.b]"
				}
				for _, c := range p.Changes {
					if got := fmt.Sprint(c.Dependencies); c.Addr.String() == "test_thing.c" && got != want {
						t.Errorf("test_thing.c depends on %s, want %s", got, want)
					}
				}
			})
		}
	}
}

// firstError is the summary of the first error of ds, or "".
func firstError(ds diag.Diagnostics) string {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return d.Summary
		}
	}
	return ""
}
