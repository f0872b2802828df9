package apply

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/planner"
)

// partial is what an apply that failed part-way may still evaluate: the
// outputs and check blocks none of whose resources had an operation that
// failed, was skipped or did not start. OpenTofu evaluates those too, so
// that `output` after a failed apply has the values it could compute.
type partial struct {
	sources planner.ValueSources
	failed  map[addrs.ConfigResource]bool
}

// partialAfter returns what an apply whose walk ended with res may still
// evaluate, or nil when every operation finished.
func (a *applier) partialAfter(res dag.WalkResult[Op]) (*partial, diag.Diagnostics) {
	failed := map[addrs.ConfigResource]bool{}
	for op, r := range res.All() {
		if !op.IsBarrier() && r.Outcome != dag.Done {
			failed[op.Addr.ContainingResource().InConfig()] = true
		}
	}
	if len(failed) == 0 {
		return nil, nil
	}
	sources, ds := planner.ValueSourcesOf(a.cfg)
	return &partial{sources: sources, failed: failed}, ds
}

// outputOK reports whether output name of module m can be evaluated.
func (p *partial) outputOK(m addrs.Module, name string) bool {
	return p == nil || p.clear(p.sources.Output(m, name))
}

// checkOK reports whether check block name of module m can be evaluated.
func (p *partial) checkOK(m addrs.Module, name string) bool {
	return p == nil || p.clear(p.sources.Check(m, name))
}

func (p *partial) clear(rs []addrs.ConfigResource) bool {
	for _, r := range rs {
		if p.failed[r] {
			return false
		}
	}
	return true
}
