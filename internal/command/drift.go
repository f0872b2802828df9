package command

import (
	"fmt"

	"github.com/rig-iac/rig/internal/ui"
)

// Exit codes of rig drift.
const (
	driftNone     = 0
	driftFailed   = 1
	driftDetected = 2
)

// runDrift reads back every recorded object, as a refresh-only plan does,
// and reports what changed outside rig, attribute by attribute, and the
// conditions (check blocks, resource pre- and postconditions) that fail
// against what it read. It writes nothing: not the state, not a plan.
func runDrift(m *Meta, args []string) int {
	var f operationFlags
	fs := m.flagSet("drift")
	m.addOperationFlags(fs, &f)
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", fmt.Sprintf("Unexpected argument %q: the drift command takes no positional arguments. To check another working directory, use the global -chdir option.", fs.Arg(0)))
	}
	f.refreshOnly, f.listRefreshed = true, true
	out, run, ok := m.startOperation(&f)
	if !ok {
		return driftFailed
	}
	defer run.end()
	ctx := run.ctx
	sess, ds := run.open(m, &f, "OperationTypePlan")
	if ds.HasErrors() {
		out.Diagnostics(ds)
		return driftFailed
	}
	// The plan lists what it read back; nothing is recorded.
	p, _, more := m.makePlan(ctx, sess, &f, out)
	ds = ds.Append(more)
	if ds.HasErrors() {
		out.Diagnostics(ds)
		return driftFailed
	}
	report := ui.DriftReport{Drift: p.Drift, Objects: len(p.Refreshed), FailedConditions: p.FailedConditions()}
	out.Drift(p, report)
	if m.interrupts.Finish() {
		ds = ds.Append(errDriftInterrupted)
	}
	out.Diagnostics(ds)
	if ds.HasErrors() {
		return driftFailed
	}
	if len(p.Drift) > 0 || report.FailedConditions > 0 {
		return driftDetected
	}
	return driftNone
}
