// Package testrun owns the execution of test files (rig test): for each
// file, its run blocks in order (parallel ones side by side), each a plan or
// a plan and an apply of the module under test or of another module, with
// its variables, providers, mocks and overrides; the assertions and
// expected failures judged against the plan or the new state; an in-memory
// state per state key; and at the end of the file the destruction of what
// the runs created, state by state in reverse order. Files run in parallel.
//
// It does no I/O of its own: the configuration loader, the provider
// factories and the plan and apply functions are injected (Options), and
// results go to a Reporter as they become final. Provider processes are
// kept for the whole suite and shared by every run that configures a
// provider the same way (pool.go).
//
// It imports internal/addrs, internal/apply, internal/config, internal/dag,
// internal/diag, internal/eval, internal/lang, internal/parallel,
// internal/plan, internal/planner, internal/provider and internal/state.
package testrun
