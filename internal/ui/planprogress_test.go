package ui

import (
	"io"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/plan"
)

func TestPlanProgressInterval(t *testing.T) {
	var none *PhaseProgress
	none.UseInterval(time.Second)
	none.BeginPlan(plan.NormalMode, time.Second)() // nobody to report to: nothing happens

	p := NewPhaseProgress(io.Discard, RenderOptions{}, nil)
	p.UseInterval(0)
	if p.Interval != DefaultProgressInterval {
		t.Errorf("an unset interval changed the default: %v", p.Interval)
	}
	end := p.BeginPlan(plan.RefreshOnlyMode, 3*time.Second)
	end()
	if p.Interval != 3*time.Second {
		t.Errorf("interval %v, want rig.hcl's 3s", p.Interval)
	}
}
