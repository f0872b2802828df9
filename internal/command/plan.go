package command

import (
	"fmt"
	"time"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan/planfile"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/workdir"
)

func runPlan(m *Meta, args []string) int {
	var f operationFlags
	fs := m.flagSet("plan")
	m.addOperationFlags(fs, &f)
	addInvokeFlag(fs, &f)
	fs.BoolVar(&f.destroy, "destroy", false, "Select the \"destroy\" planning mode: plan to destroy every object the state manages instead of the usual changes.")
	fs.BoolVar(&f.refreshOnly, "refresh-only", false, "Select the \"refresh only\" planning mode: plan only to update the state and root outputs to match changes made to remote objects outside of rig.")
	fs.BoolVar(&f.detailedExitcode, "detailed-exitcode", false, "Return detailed exit codes: 0 when the plan succeeded with no changes, 1 on an error, 2 when it succeeded with changes present.")
	fs.StringVar(&f.out, "out", "", "Write the plan to the file at `PATH`, for \"rig apply PATH\" to apply.")
	m.addShowSensitiveFlag(fs)
	fs.StringVar(&f.timeline, "timeline", "", "Write the timeline of the plan's calls to its providers' APIs to `FILE` as an HTML page: per provider configuration, the calls in flight and their adaptive limit.")
	var genOut string
	fs.StringVar(&genOut, "generate-config-out", "", "Write a resource block for every import block whose target has none into the new file at `PATH`, which must not exist; the plan includes it.")
	if code, ok := m.parseArgs(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return m.argsError(fs, "Too many command line arguments", "To specify a working directory for the plan, use the global -chdir flag.")
	}
	out, run, ok := m.startOperation(&f)
	if !ok {
		return 1
	}
	defer run.end()
	// As OpenTofu: before anything else.
	out.Diagnostics(m.dir().DevOverridesWarning())
	ctx := run.ctx
	sess, ds := run.open(m, &f, "OperationTypePlan")
	if ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	// As OpenTofu: the configuration is validated first, and its errors
	// stop the plan before anything is planned.
	validated := sess.Validate(ctx)
	if ds = ds.Append(validated); ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	_, cutOff := m.dir().CutOffCreates()
	out.Diagnostics(cutOff)
	var generated []planner.GeneratedResource
	if genOut != "" {
		if f.destroy || f.refreshOnly {
			out.Diagnostics(ds.Append(diag.Errorf("Invalid generate-config-out flag",
				"Config can only be generated during a normal plan operation, and not during a refresh-only or destroy plan.")))
			return 1
		}
		var more diag.Diagnostics
		generated, more = sess.GenerateConfig(ctx, genOut)
		m.sources = sess.Sources
		if ds = ds.Append(more); ds.HasErrors() {
			out.Diagnostics(ds)
			return 1
		}
	}
	started := time.Now()
	p, refresh, more := m.makePlan(ctx, sess, &f, out)
	ds = ds.Append(withoutRepeats(more, validated))
	if ds.HasErrors() {
		if interrupted := m.interrupts.Finish(); !interrupted && f.out != "" && p != nil && p.Evaluated {
			// As OpenTofu: saved, for show to inspect (an interrupted
			// plan is not: it says so).
			ds = ds.Append(writeErroredPlan(f.out, p, sess))
		}
		if !m.showRefusedPlan(ctx, out, sess, p, ds) {
			out.ErroredPlan(ctx, p, sess.Providers)
		}
		out.Diagnostics(ds)
		return 1
	}
	note, more := sess.KeepPlanTimeline(f.timeline, started)
	ds = ds.Append(more)
	if err := refresh.Record(p, sess.State, false); err != nil {
		ds = ds.Append(warningf("Failed to record refresh times", "%s", err))
	}
	schemas := ui.PlanSchemas(ctx, sess.Providers, p)
	order := ui.StartOrder(p, apply.OrderOptions{Config: sess.Config})
	out.Plan(p, schemas, order)
	// As OpenTofu: after the plan.
	out.Diagnostics(ui.TargetingWarning(p))
	g, more := order.Wait()
	m.dir().LogGraph(g)
	ds = ds.Append(more)
	if ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	if m.interrupts.Finish() {
		out.Diagnostics(ds.Append(errPlanInterrupted))
		return 1
	}
	out.Diagnostics(ds)
	if len(generated) > 0 && !f.json && !m.inAutomation {
		fmt.Fprintf(m.Out, "\n─────────────────────────────────────────────────────────────────────────────\n\nrig has generated configuration and written it to %s. Please review the\nconfiguration and edit it as necessary before adding it to version control.\n", genOut)
	}
	if f.out != "" {
		pf := &planfile.File{Plan: p, Config: sess.Config.Sources, StateLineage: sess.State.Lineage, StateSerial: sess.State.Serial, Workspace: sess.Workspace}
		if err := workdir.WritePlan(f.out, pf, sess.Config); err != nil {
			out.Diagnostics(ds.Append(diag.Errorf("Failed to write plan file", "The plan file could not be written: %s.", err)))
			return 1
		}
		// As OpenTofu, a plan with nothing to apply (only check results,
		// say) is saved without telling how to apply it.
		if !m.inAutomation && p.HasChanges() {
			out.SavedPlan(f.out, len(generated) > 0)
		}
	}
	if f.out == "" && !f.json && p.HasChanges() && !m.inAutomation {
		if len(generated) == 0 {
			fmt.Fprintf(m.Out, "\n─────────────────────────────────────────────────────────────────────────────\n")
		}
		fmt.Fprintf(m.Out, "\nNote: You didn't use the -out option to save this plan, so rig can't\nguarantee to take exactly these actions if you run \"rig apply\" now.\n")
	}
	if note != "" && !f.json {
		fmt.Fprintln(m.Out, note)
	}
	if f.detailedExitcode && p.HasChanges() {
		return 2
	}
	return 0
}
