package explain

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/plan"
)

// Gate is the health gate (rig.hcl) of an object's create_before_destroy
// replacement: what each of its checks reads again.
type Gate struct {
	Gate plan.HealthGate
	// Reads are the data sources each check reads again, before reading
	// the new object and evaluating its postconditions.
	Reads []apply.GateRead
	// Conditions are where the postconditions each check evaluates are
	// written.
	Conditions []hcl.Range
}

// gateOf returns the gate of change c, nil when it has none.
func gateOf(c *plan.ResourceInstanceChange, src *sources) *Gate {
	if c.Gate == nil {
		return nil
	}
	g := &Gate{Gate: *c.Gate}
	if r := src.resource(c.Addr.ContainingResource()); r != nil {
		g.Reads = apply.GateDataSources(c.Addr, r)
		for _, rule := range r.Postconditions {
			g.Conditions = append(g.Conditions, rule.DeclRange)
		}
	}
	return g
}

func writeGate(b *strings.Builder, g *Gate) {
	fmt.Fprintf(b, "  health gate (rig.hcl): the new object waits, before anything moves onto it, until its postconditions pass, checked at once and every %s for up to %s", g.Gate.Interval, g.Gate.Timeout)
	if g.Gate.BatchSize > 0 {
		fmt.Fprintf(b, "; replaced in batch %d, %d at a time", g.Gate.Batch+1, g.Gate.BatchSize)
	}
	b.WriteString("\n    each check reads again: ")
	for _, r := range g.Reads {
		b.WriteString(r.String() + ", then ")
	}
	b.WriteString("the new object\n")
	for _, rng := range g.Conditions {
		fmt.Fprintf(b, "    postcondition at %s\n", pos(rng))
	}
	b.WriteString("    if it does not pass in time, the new object is destroyed and the old one stays\n")
}

type gateJSON struct {
	IntervalSeconds float64     `json:"interval_seconds"`
	TimeoutSeconds  float64     `json:"timeout_seconds"`
	BatchSize       int         `json:"batch_size,omitempty"`
	Batch           int         `json:"batch,omitempty"`
	Reads           []string    `json:"reads"`
	Conditions      []rangeJSON `json:"postconditions,omitempty"`
}

func gateToJSON(g *Gate) *gateJSON {
	if g == nil {
		return nil
	}
	j := &gateJSON{IntervalSeconds: g.Gate.Interval.Seconds(), TimeoutSeconds: g.Gate.Timeout.Seconds(), Reads: []string{}}
	if g.Gate.BatchSize > 0 {
		j.BatchSize, j.Batch = g.Gate.BatchSize, g.Gate.Batch+1
	}
	for _, r := range g.Reads {
		j.Reads = append(j.Reads, r.String())
	}
	for _, rng := range g.Conditions {
		j.Conditions = append(j.Conditions, *rangeOf(&rng))
	}
	return j
}
