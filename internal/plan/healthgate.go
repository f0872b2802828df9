package plan

import (
	"time"
)

// HealthGate is rig.hcl's health_gate of one resource: each
// create_before_destroy replacement of its instances waits, between
// creating the new object and anything moving onto it, until the new
// object passes its postconditions, read again every Interval, or Timeout
// passes; BatchSize instances are replaced at a time (0: all at once).
type HealthGate struct {
	Interval, Timeout time.Duration
	BatchSize         int
	// Batch is, on a change, the batch its replacement belongs to,
	// counting from 0 in address order: batch k+1 starts once every
	// replacement of batch k has passed its gate.
	Batch int
}

// assignGates gives each create_before_destroy replacement of a resource
// that has a health gate its gate and batch. changes are sorted.
func assignGates(changes []*ResourceInstanceChange, gates map[string]HealthGate) {
	if len(gates) == 0 {
		return
	}
	count := map[string]int{}
	for _, c := range changes {
		if c.Action != CreateThenDelete || c.Deposed != "" {
			continue
		}
		name := c.Addr.ContainingResource().InConfig().String()
		g, ok := gates[name]
		if !ok {
			continue
		}
		if g.BatchSize > 0 {
			g.Batch = count[name] / g.BatchSize
		}
		count[name]++
		c.Gate = &g
	}
}
