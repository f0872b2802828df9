package apply

import (
	"strings"

	"github.com/rig-iac/rig/internal/adaptive"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// Limit caps how many operations of one kind run at once, finer than
// Options.Parallelism, for APIs with rate limits.
type Limit struct {
	// Name selects the operations: a resource address ("aws_instance.web"
	// or an instance "aws_instance.web[0]") when it contains a dot, else a
	// resource type when the configuration has resources of that type, else
	// a provider local name ("aws").
	Name string
	// N is the most operations of that kind running at once.
	N int
}

// limitClasses returns, for the operation graph g, a function giving each
// operation's limit classes (indexes into limits) for dag.WalkOptions.
func limitClasses(cfg *config.Module, g *Graph, limits []Limit) func(Op) []int {
	if len(limits) == 0 {
		return nil
	}
	types := map[string]bool{}
	for _, m := range cfg.AllModules() {
		for _, r := range m.Resources() {
			types[r.Addr.Type] = true
		}
	}
	type matcher func(op Op, pc addrs.AbsProviderConfig) bool
	matchers := make([]matcher, len(limits))
	for i, l := range limits {
		name := l.Name
		switch {
		case strings.Contains(name, "."):
			matchers[i] = func(op Op, _ addrs.AbsProviderConfig) bool {
				return op.Addr.String() == name || op.Addr.ContainingResource().String() == name
			}
		case types[name]:
			matchers[i] = func(op Op, _ addrs.AbsProviderConfig) bool { return op.Addr.Resource.Resource.Type == name }
		default:
			p := cfg.ProviderFor(name)
			matchers[i] = func(_ Op, pc addrs.AbsProviderConfig) bool { return pc.Provider == p }
		}
	}
	return func(op Op) []int {
		c := g.Changes[op]
		if c == nil || c.Action == plan.NoOp {
			return nil // a barrier, or a check that calls no provider
		}
		var out []int
		for i, m := range matchers {
			if m(op, c.ProviderConfig) {
				out = append(out, i)
			}
		}
		return out
	}
}

// classLimits returns the N of each limit, in order.
func classLimits(limits []Limit) []int {
	out := make([]int, len(limits))
	for i, l := range limits {
		out[i] = l.N
	}
	return out
}

// LimitNames returns, for the operation graph g of a plan of cfg, a
// function giving the names of the limits each operation counts against,
// as Apply counts them (nil for none, and for a barrier).
func LimitNames(cfg *config.Module, g *Graph, limits []Limit) func(Op) []string {
	classes := limitClasses(cfg, g, limits)
	return func(op Op) []string {
		if classes == nil {
			return nil
		}
		var out []string
		for _, i := range classes(op) {
			out = append(out, limits[i].Name)
		}
		return out
	}
}

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
