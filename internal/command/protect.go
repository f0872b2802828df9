package command

import (
	"context"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/workdir"
)

// showRefusedPlan renders a plan whose only errors refuse the deletion
// of protected objects (plan.OnlyRefusals): every change, the refused
// ones marked, so that the reader sees why each destroy was planned.
// It reports whether it did; other failed plans are shown as far as
// they got (output.erroredPlan).
func (m *Meta) showRefusedPlan(ctx context.Context, out *ui.OperationView, sess *workdir.Session, p *plan.Plan, ds diag.Diagnostics) bool {
	if !plan.OnlyRefusals(p, ds) {
		return false
	}
	out.Plan(p, ui.PlanSchemas(ctx, sess.Providers, p), ui.StartOrder(p, apply.OrderOptions{Config: sess.Config}))
	return true
}

// runStateUnprotect lifts the prevent_destroy the state records for one
// resource instance (rig.hcl's record_prevent_destroy): the next plan may
// destroy it.
func runStateUnprotect(m *Meta, args []string) int {
	fs := m.flagSet("state unprotect")
	_, lock, lockTimeout := stateFlags(fs, false)
	m.addLegacyStateFlags(fs, legacyAll)
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	addr, code, ok := m.oneManagedInstance(fs, "are protected")
	if !ok {
		return code
	}
	return m.modifyState(workdir.LockOptions{Lock: *lock, Timeout: *lockTimeout}, func(s *state.State) (bool, diag.Diagnostics) {
		setAt, ds := workdir.Unprotect(s, addr)
		if ds.HasErrors() {
			return false, ds
		}
		ui.StateEditView{W: m.Out}.Unprotected(addr, setAt)
		return true, nil
	})
}
