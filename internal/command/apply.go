package command

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/workdir"
)

func runApply(m *Meta, args []string) int {
	return runApplyOrDestroy(m, args, "apply")
}

func runDestroy(m *Meta, args []string) int {
	return runApplyOrDestroy(m, args, "destroy")
}

// runRefresh is "rig refresh": "rig apply -refresh-only -auto-approve".
func runRefresh(m *Meta, args []string) int {
	return runApplyOrDestroy(m, args, "refresh")
}

// runApplyOrDestroy runs the command name: apply, destroy or refresh.
func runApplyOrDestroy(m *Meta, args []string, name string) int {
	var f operationFlags
	destroy, refresh := name == "destroy", name == "refresh"
	fs := m.flagSet(name)
	m.addOperationFlags(fs, &f)
	switch name {
	case "apply":
		addInvokeFlag(fs, &f)
		fs.BoolVar(&f.autoApprove, "auto-approve", false, "Skip interactive approval of the plan before applying.")
		fs.BoolVar(&f.destroy, "destroy", false, "Destroy every object the state manages, as \"rig destroy\" does.")
		fs.BoolVar(&f.refreshOnly, "refresh-only", false, "Only update the state and root outputs to match changes made to remote objects outside of rig, without changing any object.")
	case "destroy":
		fs.BoolVar(&f.autoApprove, "auto-approve", false, "Skip interactive approval of the plan before applying.")
	}
	if name != "refresh" {
		m.addShowSensitiveFlag(fs)
		fs.BoolVar(&f.suppressForget, "suppress-forget-errors", false, "Let a destroy that completes but leaves behind objects it forgot (lifecycle.destroy = false, or removed blocks) succeed, rather than fail.")
		fs.StringVar(&f.timeline, "timeline", "", "Write the timeline of the operations that ran to `FILE` as an HTML page: a bar per operation, the critical path, and how many ran at once per limit.")
	}
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	f.destroy = f.destroy || destroy
	if refresh {
		f.refreshOnly, f.autoApprove, f.refreshCommand = true, true, true
	}
	if destroy && fs.NArg() == 1 {
		return m.destroyWithArgument(fs.Arg(0))
	}
	if (destroy || refresh) && fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "Expected at most one positional argument.")
	}
	if fs.NArg() > 1 {
		return m.argsError(fs, "Too many command line arguments", "Expected at most one positional argument: the path of a saved plan file.")
	}
	out, run, ok := m.startOperation(&f)
	if !ok {
		return 1
	}
	defer run.end()
	if !refresh {
		// As OpenTofu: before anything else (a refresh does not warn).
		out.Diagnostics(m.dir().DevOverridesWarning())
	}
	ctx := run.ctx
	if fs.NArg() == 1 {
		return m.applySavedPlan(run, out, fs.Arg(0), &f)
	}

	lockOp := "OperationTypeApply"
	if refresh {
		lockOp = "OperationTypeRefresh"
	}
	sess, ds := run.open(m, &f, lockOp)
	if ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	// As OpenTofu: the configuration is validated first, and its errors
	// stop the operation before anything is planned.
	validated := sess.Validate(ctx)
	if ds = ds.Append(validated); ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	if refresh {
		ds = ds.Append(workdir.EmptyStateWarning(sess.State))
	}
	p, refreshTimes, more := m.makePlan(ctx, sess, &f, out)
	ds = ds.Append(withoutRepeats(more, validated))
	if ds.HasErrors() {
		if !m.showRefusedPlan(ctx, out, sess, p, ds) && !refresh {
			out.ErroredPlan(ctx, p, sess.Providers)
		}
		out.Diagnostics(ds)
		return 1
	}
	order := ui.StartOrder(p, apply.OrderOptions{Config: sess.Config})
	if refresh {
		workdir.KeepUndeclaredOutputs(p, sess.Config)
	} else {
		out.Plan(p, ui.PlanSchemas(ctx, sess.Providers, p), order)
	}
	g, more := order.Wait()
	m.dir().LogGraph(g)
	ds = ds.Append(more)
	if ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	if !p.HasChanges() || f.autoApprove {
		// No one is asked to approve: the apply evaluates the check
		// blocks again and reports them, as OpenTofu reports them once.
		ds = eval.WithoutCheckAssertions(ds)
	}
	if ctx.Err() != nil {
		ds = ds.Append(errApplyInterrupted)
	}
	out.Diagnostics(ds)
	if ds.HasErrors() {
		return 1
	}
	ds = nil
	if p.HasChanges() && !f.autoApprove && !f.json {
		approval := ui.Approval{Destroy: f.destroy, Targeted: len(p.Targets) > 0 || len(p.Excludes) > 0, RefreshOnly: f.refreshOnly}
		if !m.inputAllowed() {
			// As OpenTofu words it for -json: there is no one to ask.
			out.Diagnostics(diag.Diagnostics{diag.Errorf("Plan file or auto-approve required",
				"rig cannot ask for interactive approval when input is disabled (-input=false, or TF_INPUT=false). You can either apply a saved plan file, or enable the -auto-approve option.")})
			return 1
		}
		if !m.confirm(approval.Question()) {
			approval.Cancelled(m.Err)
			return 1
		}
	} else if p.HasChanges() && !f.autoApprove && f.json {
		out.Diagnostics(diag.Diagnostics{diag.Errorf("Plan approval required", "-json on apply requires -auto-approve or a saved plan file.")})
		return 1
	}
	return m.runApplyPhase(ctx, out, sess, p, order.Prepared(), refreshTimes, &f, nil)
}

// runApplyPhase applies a plan and reports the result. prepared is the
// plan ready to apply (apply.Prepare) when already built, or nil: the
// apply takes ownership of the plan and the session's configuration.
// refresh records the refresh times of the plan (nil: none). warnings,
// those of the validation before a saved plan's apply, are shown with the
// apply's diagnostics, as OpenTofu shows them.
func (m *Meta) runApplyPhase(ctx context.Context, out *ui.OperationView, sess *workdir.Session, p *plan.Plan, prepared *apply.Prepared, refresh *workdir.RefreshTracking, f *operationFlags, warnings diag.Diagnostics) int {
	if out.Human && p.HasChanges() && !f.refreshCommand && !f.savedPlan && !(f.autoApprove && ui.OperationCount(p) == 0) {
		// After the plan, as OpenTofu; a saved plan's apply shows none,
		// nor, as OpenTofu, an approved one that only changes outputs
		// (no order of operations to set apart).
		fmt.Fprintln(m.Out)
	}
	counter := &ui.CountHooks{}
	carried, cutOff := m.dir().CutOffCreates()
	out.Diagnostics(cutOff)
	// From here on an interrupt stops rig gracefully only: operations
	// finish and are recorded.
	endWriting := m.interrupts.BeginWriting()
	defer endWriting()
	phase := ui.PhaseApply
	if f.destroy {
		phase = ui.PhaseDestroy
	}
	out.Progress.UseInterval(sess.ProgressInterval)
	endProgress := out.Progress.Begin(phase, ui.OperationCount(p), false)
	applied, ds := sess.ApplyRecorded(ctx, p, workdir.RecordedApplyOptions{Prepared: prepared, Carried: carried, Destroy: f.destroy, Timeline: f.timeline,
		Refresh: refresh, SuppressForgetErrors: f.suppressForget, Applied: endProgress, Out: m.Out, Finish: m.interrupts.Finish,
		Observe: func(recorders ...apply.Hooks) apply.Hooks {
			return append(ui.MultiHooks{out.Hooks(), counter}, recorders...)
		}})
	ds = warnings.Append(withoutRepeats(ds, warnings))
	out.Diagnostics(ds)
	printNote := func() {
		if applied.Note != "" && out.Human {
			fmt.Fprintln(m.Out, applied.Note)
		}
	}
	if ds.HasErrors() {
		if applied.Record != nil {
			m.showApplyReport(out, applied.Record)
		}
		printNote()
		return 1
	}
	// A saved destroy plan ends as an apply, as OpenTofu ends it.
	kind := ui.OperationApply
	if f.destroy && !f.savedPlan {
		kind = ui.OperationDestroy
	}
	summary := counter.Summary(kind)
	// Imported and forgotten objects are recorded with the state, without
	// an operation.
	planned := ui.PlanSummary(p)
	summary.Import, summary.Forget = planned.Import, planned.Forget
	if f.refreshCommand {
		out.Refreshed(applied.Final)
		return 0
	}
	// As OpenTofu: the plan's targeting warning (not for a saved plan,
	// whose plan is not shown) and the apply's, before the summary.
	if !f.savedPlan {
		out.Diagnostics(ui.TargetingWarning(p))
	}
	out.Diagnostics(ui.PartialApplyWarning(p))
	out.Applied(summary, applied.Final)
	if out.Human {
		m.stateSavedNote(summary.Add, summary.Change)
	}
	printNote()
	return 0
}

// applySavedPlan applies a plan file made by `rig plan -out`, only if the
// state is still the one it was planned against and the configuration is unchanged.
func (m *Meta) applySavedPlan(run *run, out *ui.OperationView, path string, f *operationFlags) int {
	// The configuration's errors are reported below.
	pf, err := m.readSavedPlan(path)
	if err != nil {
		out.Diagnostics(diag.Diagnostics{planFileLoadError(path, err)})
		return 1
	}
	m.dir().UseSavedPlanVariables(pf.Plan.Variables)
	vars := f.vars
	f.vars, f.savedPlan = nil, true
	sess, ds := run.open(m, f, "OperationTypeApply")
	if !ds.HasErrors() {
		// -var and -var-file may repeat the values the plan was made with.
		ds = ds.Append(m.dir().CheckSavedPlanVariables(sess.Config, pf.Plan, vars))
	}
	if !ds.HasErrors() && len(pf.Plan.EphemeralVariables) > 0 {
		var ask workdir.Asker
		if m.inputAllowed() {
			ask = m.askVariable
		}
		ds = ds.Append(m.dir().EphemeralPlanVariables(sess.Config, pf.Plan, vars, ask))
	}
	if ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	if ds := sess.UseSavedPlan(pf, path); ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	// As OpenTofu: the configuration the plan was made from is validated
	// again, with the providers as they are now.
	validated := sess.Validate(run.ctx)
	if validated.HasErrors() {
		out.Diagnostics(validated)
		return 1
	}
	if pf.Plan.Errored {
		out.Diagnostics(validated.Append(errIncompletePlan))
		return 1
	}
	f.destroy = pf.Plan.Mode == plan.DestroyMode
	// The refresh times recorded with the plan apply to this state: those
	// of the objects the apply leaves alone are kept.
	refresh := sess.RefreshTracking(workdir.RefreshFlags{})
	out.NotRefreshed(pf.Plan)
	return m.runApplyPhase(run.ctx, out, sess, pf.Plan, nil, refresh, f, validated)
}
