// Package explain answers, for one address of a plan, what will happen to
// it and why: each object's action and reasons (plan.ReasonIndex), its
// operations with their step in the order of operations, the operations
// each waits for and those that wait for it with the rule of every edge
// (apply.Graph.DescribeEdge), its create_before_destroy status with the
// inheritance path, and where in the configuration each of these is
// written; for an action, its invocations (what fires each, when it
// runs, its configuration redacted); for an ephemeral resource, the
// operations that use it and so when apply opens and closes it; for a
// gated replacement, what its health gate reads again. It builds a Report value and renders it as text or JSON
// (`rig explain`); it performs no I/O of its own beyond the writer it is
// given.
//
// It imports internal/addrs, internal/apply, internal/config,
// internal/diag, internal/jsonformat, internal/lang, internal/plan,
// internal/planner and internal/ui.
package explain
