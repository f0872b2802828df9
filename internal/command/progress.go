package command

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
)

// useProgress has the operation's plan report its progress to p, every
// progress_interval when rig.hcl sets one.
func (op *operation) useProgress(p *ui.PhaseProgress) {
	op.progress = p
	if p != nil && op.progressInterval > 0 {
		p.Interval = op.progressInterval
	}
}

// beginPlanProgress starts reporting on a plan in mode: its refresh of
// the recorded objects (unless -refresh=false), then its planning. The
// function returned ends it.
func (op *operation) beginPlanProgress(f *operationFlags, mode plan.Mode) func() {
	if op.progress == nil {
		return func() {}
	}
	if !f.refresh {
		return op.progress.Begin(ui.PhasePlan, 0, false)
	}
	return op.progress.Begin(ui.PhaseRefresh, recordedObjects(op.state), mode == plan.RefreshOnlyMode)
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
