package ui

import (
	"io"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/plan"
)

// RenderSavedPlan shows a plan read from a file (rig show PLAN): what it
// did not read back and when it was made, its changes, and the order of
// their operations when it has any (order says how to build it).
func RenderSavedPlan(w io.Writer, p *plan.Plan, schemas SchemaSource, order apply.OrderOptions, opts RenderOptions) {
	RenderNotRefreshed(w, p, p.Timestamp)
	_ = RenderPlan(w, p, schemas, opts)
	if p.Errored {
		// It cannot be applied: no order of operations.
		return
	}
	pending := StartOrder(p, order)
	if _, ds := pending.Wait(); !ds.HasErrors() && p.HasChanges() {
		RenderWaves(w, pending.Waves(), opts)
	}
}
