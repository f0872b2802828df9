package planner

import (
	"sync"

	"github.com/rig-iac/rig/internal/adaptive"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// apiLimits gives the work of each object a class of the plan's pool per
// provider configuration, whose limit is the configuration's adaptive
// limiter (provider.Set.Adapt): reads run at the concurrency the API
// sustains. Without an explicit -parallelism (the set's ceiling above
// Options.Parallelism) they may go past it, each configuration bounded by
// its own limiter; with one, the configurations share it fairly
// (adaptive.Group).
type apiLimits struct {
	set   *provider.Set
	pool  *parallel.Pool
	group *adaptive.Group // nil without an explicit -parallelism

	mu      sync.Mutex // guards classes
	classes map[addrs.AbsProviderConfig]int
}

// newPool returns the plan's pool, within -parallelism and limits, and,
// when set adapts, the pool's classes of provider configurations, with the
// limit of the walk of the reference graph (which visits the nodes whose
// objects go into the pool).
func newPool(set *provider.Set, parallelism int, limits []plan.Limit) (*parallel.Pool, *apiLimits, int) {
	ceiling := 0
	if set != nil {
		ceiling = set.AdaptiveCeiling()
	}
	if ceiling == 0 {
		return parallel.NewPool(parallelism, limitNs(limits)), nil, parallelism
	}
	a := &apiLimits{set: set, classes: map[addrs.AbsProviderConfig]int{}}
	if ceiling > parallelism {
		// No -parallelism given: each configuration's limiter bounds its
		// reads; the walk visits as many nodes as one configuration may
		// read objects at once.
		a.pool = parallel.NewPool(0, limitNs(limits))
		return a.pool, a, ceiling
	}
	a.pool = parallel.NewPool(parallelism, limitNs(limits))
	a.group = adaptive.NewGroup(parallelism, nil)
	return a.pool, a, parallelism
}

// class returns the pool class of the work of provider configuration pc,
// added on first use, and its limiter.
func (a *apiLimits) class(pc addrs.AbsProviderConfig) (int, *adaptive.Limiter) {
	l := a.set.Limiter(pc)
	if l == nil {
		return -1, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := a.classes[pc]; ok {
		return c, l
	}
	limit := l.Limit
	if g := a.group; g != nil {
		i := g.Add(l)
		limit = func() int { return g.Shares()[i] }
	}
	c := a.pool.AddClass(limit)
	a.classes[pc] = c
	return c, l
}
