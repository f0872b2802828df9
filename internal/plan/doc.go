// Package plan holds a plan as a value and the words every reader of a
// plan shares: the Plan, each object's ResourceInstanceChange with its
// Action and ActionReason, why each change does what it does (ReasonIndex,
// for every view to tell the same), how a planned or applied value is
// recorded as a state object and read back with its sensitive marks
// (stateobject.go), the hooks that observe planning and the limits of a
// run. It decides nothing and persists nothing: internal/planner makes
// plans, internal/apply carries them out, and the views (internal/ui,
// internal/explain, internal/graphview, planfile) read them.
//
// It imports internal/addrs, internal/checks, internal/config,
// internal/diag, internal/marks, internal/provider, internal/state and the
// hcl/cty libraries.
package plan
