// Package apply turns a Plan into the graph of operations that carries it
// out (Prepare; order.go: every ordering rule in one pure function;
// rules.go: the Rule each edge implements, recorded on request for rig
// explain and cycle diagnostics) and walks that graph with bounded
// parallelism (Prepared.Execute, which owns the plan from then on), one
// goroutine owning the state and persisting it through a StateWriter
// after every completed operation.
//
// It imports internal/adaptive, internal/addrs, internal/checks,
// internal/config, internal/dag, internal/diag, internal/ephemeral, internal/eval,
// internal/instance, internal/lang, internal/marks, internal/parallel,
// internal/plan, internal/planner, internal/provider, internal/provisioner,
// internal/state and the hcl/cty libraries.
package apply
