package ui

import (
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
)

// PendingOrder is a plan's operation graph and the order of operations
// shown with the plan, built on another goroutine while the plan is
// rendered, which only reads the plan too.
type PendingOrder struct {
	done  chan struct{}
	g     *apply.Graph
	ds    diag.Diagnostics
	waves [][]OrderStep
}

// StartOrder starts building p's operation graph (apply.OrderWith) and
// its order of operations, naming the provisioners of opts.Config that
// run with each operation.
func StartOrder(p *plan.Plan, opts apply.OrderOptions) *PendingOrder {
	o := &PendingOrder{done: make(chan struct{})}
	go func() {
		defer close(o.done)
		o.g, o.ds = apply.OrderWith(p, opts)
		if o.g != nil {
			o.waves = OrderWaves(o.g, func(op apply.Op) []string {
				return apply.ProvisionerTypes(opts.Config, p, op, o.g.Changes[op])
			})
		}
	}()
	return o
}

// NoOrder is the PendingOrder of a plan shown without an order of
// operations: one that cannot be applied.
func NoOrder() *PendingOrder {
	o := &PendingOrder{done: make(chan struct{})}
	close(o.done)
	return o
}

// Wait returns the graph and apply.OrderWith's diagnostics once built;
// the graph is nil when there is none.
func (o *PendingOrder) Wait() (*apply.Graph, diag.Diagnostics) {
	<-o.done
	return o.g, o.ds
}

// Waves returns the order of operations once built (RenderWaves and the
// JSON stream's order message show it); nil without a graph.
func (o *PendingOrder) Waves() [][]OrderStep {
	<-o.done
	return o.waves
}
