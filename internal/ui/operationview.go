package ui

import (
	"context"
	"fmt"
	"io"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// OperationView is where a plan, apply or destroy reports: the human
// renderers (unless the JSON stream alone is asked for), the
// machine-readable line stream (on standard output, or into a file beside
// the human output), or both, and the progress of its long phases.
type OperationView struct {
	// Out is where the human output goes; Human says it is written.
	Out   io.Writer
	Human bool
	// Concise leaves the progress lines out of the human output.
	Concise bool
	// Options are the human renderers'.
	Options RenderOptions
	// JSON is the line stream; nil without one.
	JSON *JSONView
	// Progress reports on long phases to both; nil with neither.
	Progress *PhaseProgress
	// ShowDiagnostics renders diagnostics for people; Sources returns the
	// files the diagnostics' snippets come from, for the line stream.
	ShowDiagnostics func(diag.Diagnostics)
	Sources         func() map[string][]byte
}

// NewOperationView returns the view of an operation writing human output
// to out unless human is false, and the line stream json when not nil.
func NewOperationView(out io.Writer, human, concise bool, opts RenderOptions, json *JSONView) *OperationView {
	o := &OperationView{Out: out, Human: human, Concise: concise, Options: opts, JSON: json}
	var progressOut io.Writer
	if human && !concise {
		progressOut = out
	}
	o.Progress = NewPhaseProgress(progressOut, opts, json)
	return o
}

// Diagnostics reports diagnostics to people and to the line stream.
func (o *OperationView) Diagnostics(ds diag.Diagnostics) {
	if len(ds) == 0 {
		return
	}
	if o.JSON != nil {
		var sources map[string][]byte
		if o.Sources != nil {
			sources = o.Sources()
		}
		o.JSON.Diagnostics(ds, sources)
	}
	if o.Human && o.ShowDiagnostics != nil {
		o.ShowDiagnostics(ds)
	}
}

// Plan shows a plan, with its order of operations once order is built.
func (o *OperationView) Plan(p *plan.Plan, schemas ProviderSchemas, order *PendingOrder) {
	if o.JSON != nil {
		o.JSON.NotRefreshed(p, p.Timestamp)
		o.JSON.Plan(p)
		if g, _ := order.Wait(); g != nil {
			o.JSON.Order(order.Waves())
		}
	}
	if !o.Human {
		return
	}
	RenderNotRefreshed(o.Out, p, p.Timestamp)
	_ = RenderPlan(o.Out, p, schemas, o.Options)
	if g, _ := order.Wait(); g != nil && p.HasChanges() {
		RenderWaves(o.Out, order.Waves(), o.Options)
	}
}

// ErroredPlan shows what a plan that stopped with errors had planned, as
// OpenTofu shows it before the errors: the changes planned so far ("rig
// planned the following actions, but then encountered a problem"), or
// "Planning failed." when it planned no change; nothing for a plan that
// stopped before evaluating the configuration's objects (OpenTofu then has
// no plan). It shows no order of operations: the plan cannot be applied.
func (o *OperationView) ErroredPlan(ctx context.Context, p *plan.Plan, providers *provider.Set) {
	if p == nil || !p.Evaluated {
		return
	}
	o.Plan(p, PlanSchemas(ctx, providers, p), NoOrder())
}

// SavedPlan tells where the plan was saved and how to apply it; separated
// says a separator line already stands above (after the generated-config
// note).
func (o *OperationView) SavedPlan(path string, separated bool) {
	if !o.Human {
		return
	}
	if !separated {
		fmt.Fprint(o.Out, "\n─────────────────────────────────────────────────────────────────────────────\n")
	}
	fmt.Fprintf(o.Out, "\nSaved the plan to: %s\n\nTo perform exactly these actions, run the following command to apply:\n    rig apply %q\n", path, path)
}

// RefreshHooks returns what shows the refresh of recorded objects while
// planning: lines before the plan (not when concise), and
// refresh_start/refresh_complete messages in the line stream.
func (o *OperationView) RefreshHooks() plan.RefreshHooks {
	var hs MultiRefreshHooks
	if o.Human && !o.Concise {
		hs = append(hs, NewRefreshView(o.Out, o.Options))
	}
	if o.JSON != nil {
		hs = append(hs, o.JSON)
	}
	if o.Progress != nil {
		hs = append(hs, o.Progress)
	}
	switch len(hs) {
	case 0:
		return nil
	case 1:
		return hs[0]
	}
	return hs
}

// Hooks returns what shows the progress of an apply: lines (not when
// concise) and messages in the line stream.
func (o *OperationView) Hooks() apply.Hooks {
	var hs MultiHooks
	if o.Human && !o.Concise {
		hs = append(hs, NewHumanHooks(o.Out, o.Options))
	}
	if o.JSON != nil {
		hs = append(hs, o.JSON)
	}
	if o.Progress != nil {
		hs = append(hs, o.Progress)
	}
	return hs
}

// Applied reports the end of an apply or destroy: its summary and, after
// an apply, the root outputs.
func (o *OperationView) Applied(summary ChangeSummary, final *state.State) {
	if o.JSON != nil {
		o.JSON.ChangeSummary(summary)
		_ = o.JSON.Outputs(final.Outputs)
	}
	if !o.Human {
		return
	}
	_ = RenderApplySummary(o.Out, summary, o.Options)
	if summary.Operation != OperationDestroy && len(final.Outputs) > 0 {
		_ = RenderApplyOutputs(o.Out, final.Outputs, o.Options)
	}
}

// Refreshed reports the end of the refresh command: the root outputs, as
// OpenTofu's refresh shows them, without a summary.
func (o *OperationView) Refreshed(final *state.State) {
	if o.JSON != nil {
		_ = o.JSON.Outputs(final.Outputs)
	}
	if o.Human && len(final.Outputs) > 0 {
		_ = RenderApplyOutputs(o.Out, final.Outputs, o.Options)
	}
}

// Drift reports what rig drift found: each drifted object and attribute
// and the summary in the line stream, the report for people.
func (o *OperationView) Drift(p *plan.Plan, report DriftReport) {
	if o.JSON != nil {
		for _, c := range p.Drift {
			o.JSON.ResourceDrift(c)
			for _, a := range DriftedAttributes(c) {
				o.JSON.DriftAttribute(c, a)
			}
		}
		o.JSON.DriftSummary(report)
	}
	if o.Human {
		RenderDrift(o.Out, report, o.Options)
	}
}
