package command

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
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
func (m *Meta) showRefusedPlan(ctx context.Context, out *output, sess *workdir.Session, p *plan.Plan, ds diag.Diagnostics) bool {
	if !plan.OnlyRefusals(p, ds) {
		return false
	}
	out.plan(p, ui.PlanSchemas(ctx, sess.Providers, p), orderPlan(p, sess.Config))
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
	if fs.NArg() != 1 {
		return m.argsError(fs, "Invalid number of arguments", "The state unprotect command expects exactly one argument: the address of a resource instance.")
	}
	addr, err := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	if err == nil && addr.Resource.Resource.Mode != addrs.Managed {
		err = fmt.Errorf("%s is a data resource: only managed resources are protected", addr)
	}
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Invalid resource instance address", "%s", err)})
		return 1
	}
	return m.modifyState(*lock, *lockTimeout, func(s *state.State) (bool, diag.Diagnostics) {
		oa := addrs.ObjectAddr{Instance: addr}
		obj := s.Object(oa)
		if obj == nil {
			return false, diag.Diagnostics{diag.Errorf("No such resource instance",
				"There is no resource instance in the state with the address %s.", addr)}
		}
		if obj.PreventDestroy == "" {
			return false, diag.Diagnostics{diag.Errorf("Resource instance is not protected",
				"The state records no prevent_destroy for %s, so there is nothing to lift.", addr)}
		}
		cp := *obj
		cp.PreventDestroy = ""
		s.SetObject(oa, &cp, s.ObjectProvider(addr))
		fmt.Fprintf(m.Out, "Resource instance %s is no longer protected: the prevent_destroy set at %s is lifted.\n", addr, obj.PreventDestroy)
		return true, nil
	})
}
