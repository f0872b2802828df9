package planner_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// A plan that follows validation on the same loaded configuration reports
// what validation found as a plan alone would: reference errors again,
// and a valid configuration plans as usual.
func TestPlanAfterValidateOnSameConfig(t *testing.T) {
	tests := []struct {
		name, src   string
		wantSummary string // the plan's first error, "" for none
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
		name:        "valid",
		src:         "resource \"test_thing\" \"a\" {\n  value = \"x\"\n}\nresource \"test_thing\" \"b\" {\n  value = test_thing.a.value\n}\n",
		wantChanges: 2,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, ds := config.LoadTreeFS(fstest.MapFS{"main.tf": {Data: []byte(tt.src), Mode: 0o644}}, config.TreeOptions{})
			if ds.HasErrors() {
				t.Fatalf("configuration does not load: %v", ds.Err())
			}
			set := providerSet(providertest.New())
			defer set.Close()
			validated := planner.Validate(context.Background(), cfg, set, planner.ValidateOptions{})
			if got := firstError(validated); got != tt.wantSummary {
				t.Errorf("validation's first error = %q, want %q", got, tt.wantSummary)
			}
			p, ds := planner.Make(context.Background(), cfg, state.New(), set, planner.Options{Mode: plan.NormalMode})
			if got := firstError(ds); got != tt.wantSummary {
				t.Fatalf("plan's first error = %q, want %q", got, tt.wantSummary)
			}
			if tt.wantSummary == "" && len(p.Changes) != tt.wantChanges {
				t.Errorf("plan has %d changes, want %d", len(p.Changes), tt.wantChanges)
			}
		})
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
