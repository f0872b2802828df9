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
