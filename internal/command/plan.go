package command

import (
	"context"
	"fmt"
	"time"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/plan/planfile"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
)

func runPlan(m *Meta, args []string) int {
	var f operationFlags
	fs := m.flagSet("plan")
	m.addOperationFlags(fs, &f)
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
		return m.argsError(fs, "Too many command line arguments", fmt.Sprintf("Unexpected argument %q: the plan command takes no positional arguments. To plan in another working directory, use the global -chdir option.", fs.Arg(0)))
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

	op, ds := m.prepare(ctx, &f, "OperationTypePlan")
	defer op.close()
	if ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	// A second interrupt asks the providers to stop (StopProvider).
	forceStop = func() { op.providers.Stop(context.Background()) }
	op.refreshHooks = out.refreshHooks()
	_, cutOff := m.reportCutOffCreates()
	out.diagnostics(cutOff)
	var generated []planner.GeneratedResource
	if genOut != "" {
		var more diag.Diagnostics
		generated, more = m.generateConfig(ctx, op, &f, genOut)
		if ds = ds.Append(more); ds.HasErrors() {
			out.diagnostics(ds)
			return 1
		}
	}
	started := time.Now()
	p, more := m.makePlan(ctx, op, &f)
	ds = ds.Append(more)
	if ds.HasErrors() {
		m.showRefusedPlan(ctx, out, op, p, ds)
		out.diagnostics(ds)
		return 1
	}
	note, more := keepPlanTimeline(op.providers, &f, started)
	ds = ds.Append(more)
	markGenerated(p, generated)
	out.diagnostics(targetingWarning(p))
	schemas := planSchemas(ctx, op.providers, p)
	order := orderPlan(p, op.cfg)
	out.plan(p, schemas, order)
	g, more := order.wait()
	m.logGraph(g)
	ds = ds.Append(more)
	if ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	out.diagnostics(ds)
	if len(generated) > 0 && !f.json && !m.inAutomation {
		fmt.Fprintf(m.Out, "\n─────────────────────────────────────────────────────────────────────────────\n\nrig has generated configuration and written it to %s. Please review the\nconfiguration and edit it as necessary before adding it to version control.\n", genOut)
	}
	if f.out != "" {
		pf := &planfile.File{Plan: p, Config: op.cfg.Sources, StateLineage: op.state.Lineage, StateSerial: op.state.Serial, Workspace: m.workspace()}
		if err := writePlan(f.out, pf, op.cfg); err != nil {
			out.diagnostics(ds.Append(err))
			return 1
		}
		if !m.inAutomation {
			out.savedPlan(f.out, len(generated) > 0)
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

// planSchemas collects the schemas of every provider a plan uses, for rendering.
func planSchemas(ctx context.Context, set *provider.Set, p *plan.Plan) ui.ProviderSchemas {
	out := ui.ProviderSchemas{}
	add := func(pc addrs.AbsProviderConfig) {
		if _, ok := out[pc.Provider]; ok {
			return
		}
		if s, ds := set.Schemas(ctx, pc.Provider); !ds.HasErrors() {
			out[pc.Provider] = s
		}
	}
	for _, c := range p.Changes {
		add(c.ProviderConfig)
	}
	if p.PriorState != nil {
		for _, r := range p.PriorState.Resources {
			add(r.ProviderConfig)
		}
	}
	return out
}

// stateSchemas collects the schemas of every provider a state uses.
func stateSchemas(ctx context.Context, set *provider.Set, s *state.State) ui.ProviderSchemas {
	out := ui.ProviderSchemas{}
	for _, r := range s.Resources {
		if _, ok := out[r.ProviderConfig.Provider]; ok {
			continue
		}
		if sch, ds := set.Schemas(ctx, r.ProviderConfig.Provider); !ds.HasErrors() {
			out[r.ProviderConfig.Provider] = sch
		}
	}
	return out
}
