package command

import (
	"bytes"
	"context"
	"fmt"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"strings"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provisioner"
	"github.com/rig-iac/rig/internal/state/statemgr"
	"github.com/rig-iac/rig/internal/timeline"
	"github.com/rig-iac/rig/internal/ui"
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
		f.refreshOnly, f.autoApprove = true, true
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
	ctx, stop := m.interruptible(func() {
		if forceStop != nil {
			forceStop()
		}
	})
	defer stop()

	if fs.NArg() == 1 {
		return m.applySavedPlan(ctx, out, fs.Arg(0), &f)
	}

	op, ds := m.prepare(ctx, &f, "OperationTypeApply")
	defer op.close()
	if ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	forceStop = func() { op.providers.Stop(context.Background()) }
	op.refreshHooks = out.refreshHooks()
	p, more := m.makePlan(ctx, op, &f)
	ds = ds.Append(more)
	if ds.HasErrors() {
		m.showRefusedPlan(ctx, out, op, p, ds)
		out.diagnostics(ds)
		return 1
	}
	out.diagnostics(targetingWarning(p))
	order := orderPlan(p, op.cfg)
	out.plan(p, planSchemas(ctx, op.providers, p), order)
	g, more := order.wait()
	m.logGraph(g)
	ds = ds.Append(more)
	if ds.HasErrors() {
		out.diagnostics(ds)
		return 1
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
	return m.runApplyPhase(ctx, out, op, p, g, &f)
}

// runApplyPhase applies a plan and reports the result.
// g is the plan's operation graph when already built, or nil.
func (m *Meta) runApplyPhase(ctx context.Context, out *output, op *operation, p *plan.Plan, g *apply.Graph, f *operationFlags) int {
	if out.human && p.HasChanges() {
		fmt.Fprintln(m.Out)
	}
	counter := &ui.CountHooks{}
	carried, cutOff := m.reportCutOffCreates()
	out.diagnostics(cutOff)
	// From here on an interrupt stops rig gracefully only: operations
	// finish and are recorded.
	endWriting := m.beginWriting()
	defer endWriting()
	intents, err := m.openIntents(op.safeguards.recordCreateIntents, carried)
	if err != nil {
		out.diagnostics(diag.Diagnostics{diag.Errorf("Failed to record the creates' intents", "%s", err)})
		return 1
	}
	var applyOpts apply.Options
	if intents != nil {
		applyOpts.Intents = intents
	}
	writer := statemgr.NewWriter(op.store, op.state)
	if g == nil {
		// The timeline needs the graph; Apply reports its errors.
		if built, ds := apply.Order(p); !ds.HasErrors() {
			g = built
		}
	}
	var rec *timeline.Recorder
	hooks := multiHooks{out.hooks(), counter}
	if m.log.Enabled(corelog.Info) {
		hooks = append(hooks, logHooks{log: m.log})
	}
	if g != nil {
		rec = newTimelineRecorder(op, g, f)
		hooks = append(hooks, rec)
	}
	final, ds := apply.Apply(ctx, op.cfg, p, op.providers, apply.Options{
		Parallelism: f.parallelism, Limits: f.limits, Hooks: hooks, StateWriter: writer, Workspace: m.workspace(),
		Graph: g, ReleaseApplied: true, SpliceDependencies: op.dependencies == plan.ReducedDependencies, Cwd: op.cwd,
		Provisioners: provisioners(), MaxInstances: op.maxInstances, Intents: applyOpts.Intents,
	})
	var note string
	var record *timeline.Record
	if rec != nil {
		var more diag.Diagnostics
		note, record, more = m.keepTimeline(rec, g, f, op.providers, ds)
		ds = ds.Append(more)
	}
	printNote := func() {
		if note != "" && out.human {
			fmt.Fprintln(m.Out, note)
		}
	}
	// A final write covers anything not yet persisted (it is skipped when nothing changed).
	if err := writer.WriteState(context.Background(), final); err != nil {
		ds = ds.Append(m.persistFailed(final, writer, err)) // errored.go: errored.tfstate
	}
	ds = ds.Append(forgottenError(p, f))
	m.closeIntents(intents, !ds.HasErrors())
	out.diagnostics(withoutDeprecations(ds))
	if ds.HasErrors() {
		if record != nil {
			m.showApplyReport(out, record)
		}
		printNote()
		return 1
	}
	kind := ui.OperationApply
	if f.destroy {
		kind = ui.OperationDestroy
	}
	summary := counter.Summary(kind)
	// Imported and forgotten objects are recorded with the state, without
	// an operation.
	planned := ui.PlanSummary(p)
	summary.Import, summary.Forget = planned.Import, planned.Forget
	out.applied(summary, final)
	if out.human {
		m.stateSavedNote(summary.Add, summary.Change)
	}
	out.diagnostics(partialApplyWarning(p))
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

// provisioners returns the provisioners an apply runs. Their commands
// stop at the first interrupt: the apply's context is cancelled then.
func provisioners() map[string]apply.Provisioner {
	return map[string]apply.Provisioner{
		provisioner.LocalExec:  provisioner.Runner{},
		provisioner.RemoteExec: provisioner.RemoteExecRunner{},
		provisioner.File:       provisioner.FileRunner{},
	}
}

// applySavedPlan applies a plan file made by `rig plan -out`, only if the
// state is still the one it was planned against and the configuration is unchanged.
func (m *Meta) applySavedPlan(ctx context.Context, out *output, path string, f *operationFlags) int {
	// The configuration says how the plan is encrypted; its errors are reported below.
	cfg, _ := m.loadConfigQuiet()
	pf, err := readPlan(path, cfg)
	if err != nil {
		out.diagnostics(diag.Diagnostics{diag.Errorf("Failed to load plan file", "%s", err)})
		return 1
	}
	if len(f.vars) > 0 {
		out.diagnostics(diag.Diagnostics{diag.Errorf("Can't set variables when applying a saved plan",
			"The -var and -var-file options cannot be used when applying a saved plan file, because a saved plan includes the variable values that were set when it was created.")})
		return 1
	}
	f.vars, f.savedPlan = nil, true
	op, ds := m.prepare(ctx, f, "OperationTypeApply")
	defer op.close()
	if ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	if !sameSources(op.cfg.Sources, pf.Config) {
		out.diagnostics(diag.Diagnostics{diag.Errorf("Saved plan does not match the configuration",
			"The configuration files changed since the plan %s was created. Create a new plan with \"rig plan -out\" and apply that.", path)})
		return 1
	}
	// With no state then and none now, the lineages are both fresh and may differ.
	fresh := op.state.Serial == 0 && pf.StateSerial == 0 && op.state.Empty()
	if !fresh && (op.state.Lineage != pf.StateLineage || op.state.Serial != pf.StateSerial) {
		out.diagnostics(diag.Diagnostics{diag.Errorf("Saved plan is stale",
			"The given plan file can no longer be applied because the state was changed by another operation after the plan was created.")})
		return 1
	}
	if fresh {
		op.state.Lineage = pf.Plan.PriorState.Lineage
	}
	f.destroy = pf.Plan.Mode == plan.DestroyMode
	return m.runApplyPhase(ctx, out, op, pf.Plan, nil, f)
}

// sameSources reports whether two configurations' files say the same
// thing: the same files, each with the same tokens, comments and blank
// lines aside (a .json file byte for byte).
func sameSources(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for name, src := range a {
		other, ok := b[name]
		if !ok {
			return false
		}
		if bytes.Equal(src, other) {
			continue
		}
		if strings.HasSuffix(name, ".json") || !sameTokens(src, other) {
			return false
		}
	}
	return true
}

// sameTokens compares two native-syntax files token by token, without
// comments and with runs of line ends taken as one.
func sameTokens(a, b []byte) bool {
	ta, tb := significantTokens(a), significantTokens(b)
	if len(ta) != len(tb) {
		return false
	}
	for i := range ta {
		if ta[i].Type != tb[i].Type || !bytes.Equal(ta[i].Bytes, tb[i].Bytes) {
			return false
		}
	}
	return true
}

func significantTokens(src []byte) hclsyntax.Tokens {
	toks, _ := hclsyntax.LexConfig(src, "", hcl.InitialPos)
	out := make(hclsyntax.Tokens, 0, len(toks))
	newline := func() {
		if len(out) > 0 && out[len(out)-1].Type != hclsyntax.TokenNewline {
			out = append(out, hclsyntax.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")})
		}
	}
	for _, t := range toks {
		switch t.Type {
		case hclsyntax.TokenComment:
			// A line comment ends its line.
			if bytes.HasSuffix(t.Bytes, []byte("\n")) {
				newline()
			}
		case hclsyntax.TokenNewline:
			newline()
		default:
			out = append(out, hclsyntax.Token{Type: t.Type, Bytes: t.Bytes})
		}
	}
	return out
}
