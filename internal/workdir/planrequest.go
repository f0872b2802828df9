package workdir

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
)

// PlanRequest is a plan as the planning options ask for it.
type PlanRequest struct {
	// Selection is what -replace, -target, -exclude, their files and
	// -invoke select.
	Selection PlanSelection
	// Destroy and RefreshOnly choose the mode; -invoke makes a plan
	// refresh-only too.
	Destroy, RefreshOnly bool
	// Refresh is false with -refresh=false; Refreshes say how what the
	// plan reads back is chosen and recorded.
	Refresh   bool
	Refreshes RefreshFlags
	// Hooks observe the refresh of recorded objects; nil for none.
	Hooks plan.RefreshHooks
	// Begin, when not nil, is called with the plan's mode as planning
	// starts; the function it returns, when planning ends (progress).
	Begin func(plan.Mode) (end func())
}

// PlanFor plans what req asks for (Plan): it parses the selection (the
// files it reads go into sources, for the snippets of diagnostics),
// chooses the mode and what is read back. It returns the plan's refresh
// times, which the caller records once the plan's state is persisted; on
// a selection error, only the diagnostics.
func (s *Session) PlanFor(ctx context.Context, req PlanRequest, sources map[string][]byte) (*plan.Plan, *RefreshTracking, diag.Diagnostics) {
	opts, ds := req.Selection.Parse(sources)
	if ds.HasErrors() {
		return nil, nil, ds
	}
	opts.Mode = plan.NormalMode
	switch {
	case req.Destroy:
		opts.Mode = plan.DestroyMode
	case req.RefreshOnly, len(opts.Invoke) > 0:
		opts.Mode = plan.RefreshOnlyMode
	}
	refresh := s.RefreshTracking(req.Refreshes)
	if req.Refresh {
		opts.RefreshScope = refresh.Scope(opts.Mode)
	}
	opts.Hooks, opts.SkipRefresh = req.Hooks, !req.Refresh
	end := func() {}
	if req.Begin != nil {
		end = req.Begin(opts.Mode)
	}
	p, more := s.Plan(ctx, opts)
	end()
	return p, refresh, ds.Append(more)
}
