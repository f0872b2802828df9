package planner

import "github.com/rig-iac/rig/internal/plan"

// assignGates gives each create_before_destroy replacement of a resource
// that has a health gate its gate and batch. changes are sorted.
func assignGates(changes []*plan.ResourceInstanceChange, gates map[string]plan.HealthGate) {
	if len(gates) == 0 {
		return
	}
	count := map[string]int{}
	for _, c := range changes {
		if c.Action != plan.CreateThenDelete || c.Deposed != "" {
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
