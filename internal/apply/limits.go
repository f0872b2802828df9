package apply

import (
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
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
