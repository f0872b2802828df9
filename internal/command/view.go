package command

import (
	"context"
	"fmt"
	"io"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/version"
)

// output sends what a plan/apply/destroy reports to the human renderers
// (unless -json), to the machine-readable line stream (on standard output
// with -json, into the file -json-into names beside the human output), or
// to both.
type output struct {
	m *Meta
	// human says the human renderers write to the standard streams.
	human bool
	// json is the line stream; nil without -json or -json-into.
	json *ui.JSONView
	// progress reports on long phases to both; nil with neither.
	progress *ui.PhaseProgress
}

// newOutput returns the output of an operation: human, JSON on standard
// output when json is set, and JSON into into as well when it is not nil.
func (m *Meta) newOutput(json bool, into io.Writer) *output {
	o := &output{m: m, human: !json}
	switch {
	case json:
		o.json = ui.NewJSONView(m.Out)
	case into != nil:
		o.json = ui.NewJSONView(into)
	}
	if o.json != nil {
		o.json.Version(version.Terraform, version.Rig)
	}
	var human io.Writer
	if o.human && !m.view.concise {
		human = m.Out
	}
	o.progress = ui.NewPhaseProgress(human, m.renderOptions(), o.json)
	m.progress = o.progress
	return o
}

func (o *output) opts() ui.RenderOptions { return o.m.renderOptions() }

func (o *output) diagnostics(ds diag.Diagnostics) {
	if len(ds) == 0 {
		return
	}
	if o.json != nil {
		o.json.Diagnostics(ds, o.m.sources)
	}
	if o.human {
		o.m.renderDiags(o.m.Err, ds)
	}
}

func (o *output) plan(p *plan.Plan, schemas ui.ProviderSchemas, order *pendingOrder) {
	if o.json != nil {
		o.json.NotRefreshed(p, p.Timestamp)
		o.json.Plan(p)
		if g, _ := order.wait(); g != nil {
			o.json.Order(order.waves)
		}
	}
	if !o.human {
		return
	}
	ui.RenderNotRefreshed(o.m.Out, p, p.Timestamp)
	_ = ui.RenderPlan(o.m.Out, p, schemas, o.opts())
	if g, _ := order.wait(); g != nil && p.HasChanges() {
		ui.RenderWaves(o.m.Out, order.waves, o.opts())
	}
}

// erroredPlan shows what a plan that stopped with errors had planned, as
// OpenTofu shows it before the errors: the changes planned so far ("rig
// planned the following actions, but then encountered a problem"), or
// "Planning failed." when it planned objects without a change; nothing
// for a plan of no object and no output. It shows no order of
// operations: the plan cannot be applied.
func (o *output) erroredPlan(ctx context.Context, p *plan.Plan, providers *provider.Set) {
	if p == nil || len(p.Changes) == 0 && len(p.Outputs) == 0 {
		return
	}
	none := &pendingOrder{done: make(chan struct{})}
	close(none.done)
	o.plan(p, ui.PlanSchemas(ctx, providers, p), none)
}

// pendingOrder is a plan's operation graph being built on another
// goroutine while the plan is rendered, which only reads the plan too.
type pendingOrder struct {
	done chan struct{}
	g    *apply.Graph
	ds   diag.Diagnostics
	// waves is the graph's order of operations as the plan shows it,
	// computed on the same goroutine; nil without a graph.
	waves [][]ui.OrderStep
}

// orderPlan starts building p's operation graph (apply.Order) and the
// order of operations shown with the plan, naming the provisioners of cfg
// that run with each operation.
func orderPlan(p *plan.Plan, cfg *config.Module) *pendingOrder {
	o := &pendingOrder{done: make(chan struct{})}
	go func() {
		defer close(o.done)
		o.g, o.ds = apply.OrderWith(p, apply.OrderOptions{Config: cfg})
		if o.g != nil {
			o.waves = ui.OrderWaves(o.g, provisionersOf(p, cfg, o.g))
		}
	}()
	return o
}

// provisionersOf names the provisioners of cfg that run with each
// operation of g, p's operation graph.
func provisionersOf(p *plan.Plan, cfg *config.Module, g *apply.Graph) func(apply.Op) []string {
	return func(op apply.Op) []string { return apply.ProvisionerTypes(cfg, p, op, g.Changes[op]) }
}

// wait returns the graph and apply.Order's diagnostics once built.
func (o *pendingOrder) wait() (*apply.Graph, diag.Diagnostics) {
	<-o.done
	return o.g, o.ds
}

// savedPlan tells where the plan was saved and how to apply it; separated
// says a separator line already stands above (after the generated-config note).
func (o *output) savedPlan(path string, separated bool) {
	if !o.human {
		return
	}
	if !separated {
		fmt.Fprint(o.m.Out, "\n─────────────────────────────────────────────────────────────────────────────\n")
	}
	fmt.Fprintf(o.m.Out, "\nSaved the plan to: %s\n\nTo perform exactly these actions, run the following command to apply:\n    rig apply %q\n", path, path)
}

// refreshHooks returns what shows the refresh of recorded objects while
// planning: lines before the plan (not with -concise), and
// refresh_start/refresh_complete messages in the line stream.
func (o *output) refreshHooks() plan.RefreshHooks {
	var hs ui.MultiRefreshHooks
	if o.human && !o.m.view.concise {
		hs = append(hs, ui.NewRefreshView(o.m.Out, o.opts()))
	}
	if o.json != nil {
		hs = append(hs, o.json)
	}
	if o.progress != nil {
		hs = append(hs, o.progress)
	}
	switch len(hs) {
	case 0:
		return nil
	case 1:
		return hs[0]
	}
	return hs
}

// hooks returns what shows the progress of an apply: lines (not with
// -concise) and messages in the line stream.
func (o *output) hooks() apply.Hooks {
	var hs ui.MultiHooks
	if o.human && !o.m.view.concise {
		hs = append(hs, ui.NewHumanHooks(o.m.Out, o.opts()))
	}
	if o.json != nil {
		hs = append(hs, o.json)
	}
	if o.progress != nil {
		hs = append(hs, o.progress)
	}
	return hs
}

func (o *output) applied(summary ui.ChangeSummary, final *state.State) {
	if o.json != nil {
		o.json.ChangeSummary(summary)
		_ = o.json.Outputs(final.Outputs)
	}
	if !o.human {
		return
	}
	_ = ui.RenderApplySummary(o.m.Out, summary, o.opts())
	if summary.Operation != ui.OperationDestroy && len(final.Outputs) > 0 {
		_ = ui.RenderApplyOutputs(o.m.Out, final.Outputs, o.opts())
	}
}

// refreshed reports the end of the refresh command: the root outputs, as
// OpenTofu's refresh shows them, without a summary.
func (o *output) refreshed(final *state.State) {
	if o.json != nil {
		_ = o.json.Outputs(final.Outputs)
	}
	if o.human && len(final.Outputs) > 0 {
		_ = ui.RenderApplyOutputs(o.m.Out, final.Outputs, o.opts())
	}
}
