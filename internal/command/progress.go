package command

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
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

// beginPlanProgress starts reporting to p (nil: nobody) on a plan in mode: its refresh of
// the recorded objects (unless -refresh=false), then its planning. The
// function returned ends it.
func beginPlanProgress(p *ui.PhaseProgress, sess *workdir.Session, f *operationFlags, mode plan.Mode) func() {
	if p == nil {
		return func() {}
	}
	useProgressInterval(p, sess)
	if !f.refresh {
		return p.Begin(ui.PhasePlan, 0, false)
	}
	return p.Begin(ui.PhaseRefresh, recordedObjects(sess.State), mode == plan.RefreshOnlyMode)
}

// recordedObjects counts the current objects of managed resources in s:
// the most a plan reads back.
func recordedObjects(s *state.State) int {
	n := 0
	for _, r := range s.Resources {
		if r.Addr.Resource.Mode != addrs.Managed {
			continue
		}
		for _, inst := range r.Instances {
			if inst.Current != nil {
				n++
			}
		}
	}
	return n
}
