// Package timeline owns the record of an apply's operations in time: a
// Recorder (an apply.Hooks) notes when each operation started and ended,
// how it ended and the limits it counted against, and the actions,
// ephemeral resources' opens, renewals and closes and health gate checks
// that ran within or beside the operations; a Record is that, with
// the operation graph, as the JSON rig keeps of the last apply; from a
// Record come the critical path, how many operations ran at once per
// limit, and a self-contained HTML page with a Gantt chart of it all.
//
// It imports internal/addrs, internal/apply, internal/graphview and
// internal/plan.
package timeline
