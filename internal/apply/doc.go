// Package apply turns a Plan into the graph of operations that carries it
// out (order.go: every ordering rule in one pure function; rules.go: the
// Rule each edge implements, recorded on request for rig explain and
// cycle diagnostics) and walks that
// graph with bounded parallelism, one goroutine owning the state and
// persisting it through a StateWriter after every completed operation.
//
// It imports internal/addrs, internal/dag, internal/diag, internal/config,
// internal/lang, internal/marks, internal/state, internal/provider,
// internal/instance, internal/plan, internal/planner and the hcl/cty
// libraries.
package apply
