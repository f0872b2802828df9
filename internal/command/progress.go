package command

import (
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/workdir"
)

// useProgressInterval has p report every progress_interval, when rig.hcl
// sets one.
func useProgressInterval(p *ui.PhaseProgress, sess *workdir.Session) {
	if p != nil && sess.ProgressInterval > 0 {
		p.Interval = sess.ProgressInterval
	}
}

// beginPlanProgress starts reporting to p (nil: nobody) on a plan in
// mode: planning, and the refresh of the recorded objects once the planner
// says how many it reads back. The function returned ends it.
func beginPlanProgress(p *ui.PhaseProgress, sess *workdir.Session, mode plan.Mode) func() {
	if p == nil {
		return func() {}
	}
	useProgressInterval(p, sess)
	return p.Begin(ui.PhasePlan, 0, mode == plan.RefreshOnlyMode)
}
