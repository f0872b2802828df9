package workdir

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
	"github.com/rig-iac/rig/internal/plan"
)

// TestPlanFor: the planning options choose the plan's mode, and the
// progress sees it; a bad address plans nothing.
func TestPlanFor(t *testing.T) {
	dir := t.TempDir()
	commandtest.WriteFile(t, dir, "main.tf", `resource "terraform_data" "a" {}`)
	ctx := context.Background()
	sess, ds := New(dir, Options{}).Open(ctx, OpenOptions{Operation: "OperationTypePlan"})
	defer sess.Close()
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	for name, tc := range map[string]struct {
		req  PlanRequest
		mode plan.Mode
	}{
		"normal":       {PlanRequest{Refresh: true}, plan.NormalMode},
		"destroy":      {PlanRequest{Destroy: true, Refresh: true}, plan.DestroyMode},
		"refresh-only": {PlanRequest{RefreshOnly: true, Refresh: true}, plan.RefreshOnlyMode},
	} {
		t.Run(name, func(t *testing.T) {
			var begun []plan.Mode
			ended := false
			tc.req.Begin = func(m plan.Mode) func() { begun = append(begun, m); return func() { ended = true } }
			p, refresh, ds := sess.PlanFor(ctx, tc.req, map[string][]byte{})
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if p.Mode != tc.mode || refresh == nil || len(begun) != 1 || begun[0] != tc.mode || !ended {
				t.Errorf("plan mode %v (progress %v, ended %v, tracking %v), want %v", p.Mode, begun, ended, refresh != nil, tc.mode)
			}
		})
	}
	p, refresh, ds := sess.PlanFor(ctx, PlanRequest{Selection: PlanSelection{Targets: []string{"not an address"}}}, map[string][]byte{})
	if !ds.HasErrors() || p != nil || refresh != nil {
		t.Errorf("a bad -target: plan %v, tracking %v, %v; want only the error", p, refresh, ds)
	}
}
