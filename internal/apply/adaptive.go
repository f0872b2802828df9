package apply

import (
	"github.com/rig-iac/rig/internal/adaptive"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// walkLimits returns the concurrency classes of the walk of g: the limits'
// classes (static), then, when set adapts (provider.Set.Adapt), one class
// per provider configuration whose limit follows the configuration's
// adaptive limiter, within parallelism: writes keep -parallelism as their
// ceiling but back off inside it when the API slows down or throttles.
func walkLimits(cfg *config.Module, g *Graph, limits []Limit, set *provider.Set, parallelism int) (classes func(Op) []int, static []int, dynamic func(int) int) {
	classes, static = limitClasses(cfg, g, limits), classLimits(limits)
	var limiters []*adaptive.Limiter
	index := map[addrs.AbsProviderConfig]int{}
	if set != nil {
		for op, c := range g.Changes {
			if op.IsBarrier() || c == nil || c.Action == plan.NoOp {
				continue
			}
			if _, ok := index[c.ProviderConfig]; ok {
				continue
			}
			l := set.Limiter(c.ProviderConfig)
			if l == nil {
				break // not adapting
			}
			index[c.ProviderConfig] = len(static) + len(limiters)
			limiters = append(limiters, l)
		}
	}
	if len(limiters) == 0 {
		return classes, static, nil
	}
	n := len(static)
	for range limiters {
		static = append(static, parallelism)
	}
	byLimits := classes
	classes = func(op Op) []int {
		var out []int
		if byLimits != nil {
			out = byLimits(op)
		}
		if c := g.Changes[op]; c != nil && c.Action != plan.NoOp {
			if i, ok := index[c.ProviderConfig]; ok {
				out = append(out, i)
			}
		}
		return out
	}
	dynamic = func(class int) int {
		if class < n {
			return static[class]
		}
		return limiters[class-n].Limit()
	}
	return classes, static, dynamic
}
