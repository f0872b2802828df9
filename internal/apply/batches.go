package apply

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
)

// connectBatches orders the health-gated create_before_destroy
// replacements of each resource in their batches (plan.HealthGate): every
// create of batch k+1 waits for every create of batch k, whose operation
// ends once its new object has passed its gate (RuleRollingBatch). A
// batch whose gate fails thus keeps the later batches from starting.
// Batches hold a few instances each, so the edges between two of them
// are few.
func connectBatches(g *Graph, changes []*plan.ResourceInstanceChange) {
	type key struct {
		resource string
		batch    int
	}
	batches := map[key][]Op{}
	for _, c := range changes {
		if c.Gate == nil || c.Gate.BatchSize <= 0 || c.Action != plan.CreateThenDelete {
			continue
		}
		k := key{c.Addr.ContainingResource().InConfig().String(), c.Gate.Batch}
		batches[k] = append(batches[k], Op{Addr: c.Addr, Kind: OpCreate})
	}
	for k, ops := range batches {
		prev := batches[key{k.resource, k.batch - 1}]
		for _, from := range prev {
			for _, to := range ops {
				g.connect(from, to, RuleRollingBatch)
			}
		}
	}
}

// gateOf returns the health gate of the replacement whose create is op,
// nil when it has none.
func gateOf(g *Graph, op Op) *plan.HealthGate {
	c := g.Changes[op]
	if c == nil || op.Kind != OpCreate || c.Action != plan.CreateThenDelete || op.Deposed != addrs.NotDeposed {
		return nil
	}
	return c.Gate
}
