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
	done     chan struct{}
	prepared *apply.Prepared
	g        *apply.Graph
	ds       diag.Diagnostics
	waves    [][]OrderStep
}

// StartOrder starts preparing p's apply (apply.Prepare with opts.Config
// and opts.DeposedKeys, which builds its operation graph) and its order
// of operations, naming the provisioners of opts.Config that run with
// each operation.
func StartOrder(p *plan.Plan, opts apply.OrderOptions) *PendingOrder {
	o := &PendingOrder{done: make(chan struct{})}
	go func() {
		defer close(o.done)
		o.prepared, o.ds = apply.Prepare(opts.Config, p, apply.PrepareOptions{DeposedKeys: opts.DeposedKeys})
		if o.prepared != nil {
			o.g = o.prepared.Graph()
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

// Wait returns the graph and apply.Prepare's diagnostics once built;
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

// Prepared returns the plan ready to apply once built (the apply then
// walks the graph shown); nil when the plan cannot be ordered.
func (o *PendingOrder) Prepared() *apply.Prepared {
	<-o.done
	return o.prepared
}
