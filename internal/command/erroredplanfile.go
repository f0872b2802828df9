package command

import (
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/plan/planfile"
	"github.com/rig-iac/rig/internal/workdir"
)

// writeErroredPlan saves p, a plan that stopped with errors, to path, as
// OpenTofu and Terraform save one: marked errored, so that show (and show
// -json, "errored": true) can inspect what was planned, and apply refuses
// it (errIncompletePlan).
func writeErroredPlan(path string, p *plan.Plan, sess *workdir.Session) diag.Diagnostics {
	p.Errored = true
	pf := &planfile.File{Plan: p, Config: sess.Config.Sources, StateLineage: sess.State.Lineage, StateSerial: sess.State.Serial, Workspace: sess.Workspace}
	if err := workdir.WritePlan(path, pf, sess.Config); err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to write plan file", "The plan file could not be written: %s.", err)}
	}
	return nil
}

// errIncompletePlan is what applying a saved errored plan says.
var errIncompletePlan = diag.Errorf("Cannot apply incomplete plan",
	"rig encountered an error when generating this plan, so it cannot be applied.")
