package ui

import (
	"time"

	"github.com/rig-iac/rig/internal/plan"
)

// UseInterval has p (nil: nobody) report every interval instead of
// DefaultProgressInterval, when interval is set (rig.hcl's
// progress_interval).
func (p *PhaseProgress) UseInterval(interval time.Duration) {
	if p != nil && interval > 0 {
		p.Interval = interval
	}
}

// BeginPlan starts reporting to p (nil: nobody) on a plan in mode:
// planning, and the refresh of the recorded objects once the planner says
// how many it reads back; every interval when set (UseInterval). The
// function returned ends it.
func (p *PhaseProgress) BeginPlan(mode plan.Mode, interval time.Duration) (end func()) {
	if p == nil {
		return func() {}
	}
	p.UseInterval(interval)
	return p.Begin(PhasePlan, 0, mode == plan.RefreshOnlyMode)
}
