package command

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/timeline"
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
	if (destroy || refresh) && fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", fmt.Sprintf("Unexpected argument %q: the %s command takes no positional arguments. To run it in another working directory, use the global -chdir option.", fs.Arg(0), name))
	}
	if fs.NArg() > 1 {
		return m.argsError(fs, "Too many command line arguments", "Expected at most one positional argument: the path of a saved plan file.")
	}
	out, closeOut, ok := m.operationOutput(&f)
	if !ok {
		return 1
	}
	defer closeOut()
	if ds := checkOperationFlags(&f); ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	var forceStop func()
	ctx, stop := m.interrupts.Notify(func() {
		if forceStop != nil {
			forceStop()
		}
	})
	defer stop()

	if fs.NArg() == 1 {
		return m.applySavedPlan(ctx, out, fs.Arg(0), &f)
	}

	lockOp := "OperationTypeApply"
	if refresh {
		lockOp = "OperationTypeRefresh"
	}
	sess, ds := m.open(ctx, &f, lockOp)
	defer sess.Close()
	if ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	forceStop = func() { sess.Providers.Stop(context.Background()) }
	if refresh {
		ds = ds.Append(emptyStateWarning(sess.State))
	}
	p, more := m.makePlan(ctx, sess, &f, out.refreshHooks())
	ds = ds.Append(more)
	if ds.HasErrors() {
		if !m.showRefusedPlan(ctx, out, sess, p, ds) && !refresh {
			out.erroredPlan(ctx, p, sess.Providers)
		}
		out.diagnostics(ds)
		return 1
	}
	out.diagnostics(ui.TargetingWarning(p))
	order := orderPlan(p, sess.Config)
	if refresh {
		keepUndeclaredOutputs(p, sess.Config)
	} else {
		out.plan(p, ui.PlanSchemas(ctx, sess.Providers, p), order)
	}
	g, more := order.wait()
	m.dir().LogGraph(g)
	ds = ds.Append(more)
	if ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	if !p.HasChanges() || f.autoApprove {
		// No one is asked to approve: the apply evaluates the check
		// blocks again and reports them, as OpenTofu reports them once.
		ds = withoutCheckAssertions(ds)
	}
	out.diagnostics(ds)
	ds = nil
	if p.HasChanges() && !f.autoApprove && !f.json {
		question, explanation := "Do you want to perform these actions?", "rig will perform the actions described above.\nOnly 'yes' will be accepted to approve."
		switch {
		case f.destroy && (len(p.Targets) > 0 || len(p.Excludes) > 0):
			question, explanation = "Do you really want to destroy?", "rig will destroy the resources shown above.\nThere is no undo. Only 'yes' will be accepted to confirm."
		case f.destroy:
			question, explanation = "Do you really want to destroy all resources?", "rig will destroy all your managed infrastructure, as shown above.\nThere is no undo. Only 'yes' will be accepted to confirm."
		case f.refreshOnly:
			question, explanation = "Would you like to update the rig state to reflect these detected changes?", "rig will write these changes to the state without modifying any real infrastructure.\nThere is no undo. Only 'yes' will be accepted to confirm."
		}
		if !m.inputAllowed() {
			// As OpenTofu words it for -json: there is no one to ask.
			out.diagnostics(diag.Diagnostics{diag.Errorf("Plan file or auto-approve required",
				"rig cannot ask for interactive approval when input is disabled (-input=false, or TF_INPUT=false). You can either apply a saved plan file, or enable the -auto-approve option.")})
			return 1
		}
		if !m.confirm(question, explanation) {
			if f.destroy {
				fmt.Fprintf(m.Err, "\nDestroy cancelled.\n")
			} else {
				fmt.Fprintf(m.Err, "\nApply cancelled.\n")
			}
			return 1
		}
	} else if p.HasChanges() && !f.autoApprove && f.json {
		out.diagnostics(diag.Diagnostics{diag.Errorf("Plan approval required", "-json on apply requires -auto-approve or a saved plan file.")})
		return 1
	}
	return m.runApplyPhase(ctx, out, sess, p, g, &f)
}

// runApplyPhase applies a plan and reports the result.
// g is the plan's operation graph when already built, or nil.
func (m *Meta) runApplyPhase(ctx context.Context, out *output, sess *workdir.Session, p *plan.Plan, g *apply.Graph, f *operationFlags) int {
	if out.human && p.HasChanges() && !f.refreshCommand {
		fmt.Fprintln(m.Out)
	}
	counter := &ui.CountHooks{}
	carried, cutOff := m.reportCutOffCreates()
	out.diagnostics(cutOff)
	// From here on an interrupt stops rig gracefully only: operations
	// finish and are recorded.
	endWriting := m.interrupts.BeginWriting()
	defer endWriting()
	intents, err := m.dir().OpenIntents(sess.Safeguards.RecordCreateIntents, carried)
	if err != nil {
		out.diagnostics(diag.Diagnostics{diag.Errorf("Failed to record the creates' intents", "%s", err)})
		return 1
	}
	var applyIntents apply.IntentLog
	if intents != nil {
		applyIntents = intents
	}
	if g == nil {
		// The timeline needs the graph; Apply reports its errors.
		if built, ds := apply.Order(p); !ds.HasErrors() {
			g = built
		}
	}
	var rec *timeline.Recorder
	hooks := ui.MultiHooks{out.hooks(), counter}
	if lh := m.dir().LogHooks(); lh != nil {
		hooks = append(hooks, lh)
	}
	if g != nil {
		rec = sess.NewTimelineRecorder(g, f.destroy)
		hooks = append(hooks, rec)
	}
	phase := ui.PhaseApply
	if f.destroy {
		phase = ui.PhaseDestroy
	}
	useProgressInterval(out.progress, sess)
	endProgress := out.progress.Begin(phase, ui.OperationCount(p), false)
	final, ds := sess.Apply(ctx, p, workdir.ApplyOptions{Graph: g, Hooks: hooks, Intents: applyIntents})
	endProgress()
	var note string
	var record *timeline.Record
	if rec != nil {
		var more diag.Diagnostics
		note, record, more = sess.KeepTimeline(rec, g, f.timeline, ds)
		ds = ds.Append(more)
	}
	printNote := func() {
		if note != "" && out.human {
			fmt.Fprintln(m.Out, note)
		}
	}
	// A final write covers anything not yet persisted (it is skipped when
	// nothing changed); errored.tfstate keeps what the backend refuses.
	persisted := sess.Persist(final, m.Out)
	ds = ds.Append(persisted)
	if !persisted.HasErrors() {
		if err := m.recordRefreshTimes(p, final, true); err != nil {
			ds = ds.Append(warningf("Failed to record refresh times", "%s", err))
		}
	}
	ds = ds.Append(forgottenError(p, f))
	m.dir().CloseIntents(intents, !ds.HasErrors())
	out.diagnostics(withoutDeprecations(ds))
	if ds.HasErrors() {
		if record != nil {
			m.showApplyReport(out, record)
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
		out.refreshed(final)
		return 0
	}
	out.applied(summary, final)
	if out.human {
		m.stateSavedNote(summary.Add, summary.Change)
	}
	out.diagnostics(ui.PartialApplyWarning(p))
	printNote()
	return 0
}

// forgottenError is the error a destroy ends with when it forgot objects
// rather than destroy them, as OpenTofu's: automation may take a
// successful destroy to mean everything is gone. -suppress-forget-errors
// turns it off.
func forgottenError(p *plan.Plan, f *operationFlags) diag.Diagnostics {
	if p.Mode != plan.DestroyMode || f.suppressForget {
		return nil
	}
	for _, c := range p.Changes {
		if c.Action.Forgets() {
			return diag.Diagnostics{diag.Errorf("Destroy was successful but left behind forgotten instances",
				"As requested, rig has not deleted some remote objects that are no longer managed by this configuration. Those objects continue to exist in their remote system and so may continue to incur charges. Refer to the original plan for more information.\nTo suppress this error for the future 'destroy' runs, you can add the CLI flag \"-suppress-forget-errors\".")}
		}
	}
	return nil
}

// withoutDeprecations returns ds without the warnings about deprecated
// module variables and outputs: evaluating the configuration again while
// applying finds those the plan reported already.
func withoutDeprecations(ds diag.Diagnostics) diag.Diagnostics {
	out := ds[:0:0]
	for _, d := range ds {
		if d.Deprecation == diag.NoDeprecation {
			out = append(out, d)
		}
	}
	return out
}

// applySavedPlan applies a plan file made by `rig plan -out`, only if the
// state is still the one it was planned against and the configuration is unchanged.
func (m *Meta) applySavedPlan(ctx context.Context, out *output, path string, f *operationFlags) int {
	// The configuration says how the plan is encrypted; its errors are reported below.
	m.useSavedPlanVariables(path)
	cfg, _ := m.loadConfigQuiet()
	pf, err := workdir.ReadPlan(path, cfg)
	if err != nil {
		out.diagnostics(diag.Diagnostics{diag.Errorf("Failed to load plan file", "%s", err)})
		return 1
	}
	m.dir().UseSavedPlanVariables(pf.Plan.Variables)
	if len(f.vars) > 0 && len(pf.Plan.EphemeralVariables) == 0 {
		out.diagnostics(diag.Diagnostics{diag.Errorf("Can't set variables when applying a saved plan",
			"The -var and -var-file options cannot be used when applying a saved plan file, because a saved plan includes the variable values that were set when it was created.")})
		return 1
	}
	vars := f.vars
	f.vars, f.savedPlan = nil, true
	sess, ds := m.open(ctx, f, "OperationTypeApply")
	defer sess.Close()
	if !ds.HasErrors() && len(pf.Plan.EphemeralVariables) > 0 {
		ds = ds.Append(m.ephemeralPlanVariables(sess.Config, pf.Plan, vars))
	}
	if ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	if ds := sess.UseSavedPlan(pf, path); ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	f.destroy = pf.Plan.Mode == plan.DestroyMode
	// The refresh times recorded with the plan apply to this state: those
	// of the objects the apply leaves alone are kept.
	m.refreshTimes = m.loadRefreshTimes(sess, f)
	out.notRefreshed(pf.Plan)
	return m.runApplyPhase(ctx, out, sess, pf.Plan, nil, f)
}

// emptyStateWarning is the refresh command's warning, as OpenTofu's, when
// the state records no managed object: there is nothing to refresh.
func emptyStateWarning(s *state.State) diag.Diagnostics {
	for ra, r := range s.Resources {
		if ra.Resource.Mode != addrs.Managed {
			continue
		}
		for _, inst := range r.Instances {
			if inst.Current != nil || len(inst.Deposed) > 0 {
				return nil
			}
		}
	}
	return diag.Diagnostics{{Severity: diag.Warning, Summary: "Empty or non-existent state",
		Detail: "There are currently no remote objects tracked in the state, so there is nothing to refresh."}}
}

// keepUndeclaredOutputs drops from a refresh-only plan the removal of the
// root outputs cfg does not declare, so that the refresh command keeps
// them in the state, as OpenTofu's refresh keeps them (an apply
// -refresh-only removes them).
func keepUndeclaredOutputs(p *plan.Plan, cfg *config.Module) {
	for name := range p.Outputs {
		if _, ok := cfg.Outputs[name]; !ok {
			delete(p.Outputs, name)
		}
	}
}

// withoutCheckAssertions returns ds without the plan's warnings about
// check block assertions.
func withoutCheckAssertions(ds diag.Diagnostics) diag.Diagnostics {
	out := ds[:0:0]
	for _, d := range ds {
		if d.Severity == diag.Warning && (d.Summary == eval.CheckAssertionFailed || d.Summary == eval.CheckAssertionUnknown) {
			continue
		}
		out = append(out, d)
	}
	return out
}
