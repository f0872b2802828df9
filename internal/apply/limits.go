package apply

import (
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
)

// Limit caps how many operations of one kind run at once, finer than
// Options.Parallelism, for APIs with rate limits; planning honours the
// same limits (plan.Limit).
type Limit = plan.Limit

// limitClasses returns, for the operation graph g, a function giving each
// operation's limit classes (indexes into limits) for dag.WalkOptions.
func limitClasses(cfg *config.Module, g *Graph, limits []Limit) func(Op) []int {
	classes := plan.LimitClasses(cfg, limits)
	if classes == nil {
		return nil
	}
	return func(op Op) []int {
		c := g.Changes[op]
		if c == nil || c.Action == plan.NoOp {
			return nil // a barrier, or a check that calls no provider
		}
		return classes(op.Addr, c.ProviderConfig)
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
