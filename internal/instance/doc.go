// Package instance holds the protocol of one managed resource instance with
// its provider, the same at plan and at apply: a recorded object upgraded
// and read again (Refresh); the configuration evaluated, its marks taken
// off for the provider and put back on the result, ignore_changes, the
// proposed new value, PlanResourceChange and the checks of what it planned,
// the choice of action and the conditions (Plan); then, at apply, the final
// plan checked against the saved one (or the saved one itself, when it had
// no unknown values and the configuration is the one it was planned from),
// ApplyResourceChange, the checks of what it returned and what the state is
// to record (Apply). The reads the plan and the apply share are here too:
// a data source instance read (ReadData) and an imported object read back
// before anything records it (ReadImported). The callers
// (internal/planner, internal/apply) decide which objects go through it and
// when, and own the plan and the state.
//
// It imports internal/addrs, internal/checks, internal/config,
// internal/diag, internal/eval, internal/lang, internal/marks,
// internal/plan, internal/provider, internal/state and the hcl/cty
// libraries.
package instance
