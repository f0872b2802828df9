package explain

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/ui"
)

// ActionReport is one action invocation of a plan explained: what fires
// it, when it runs relative to which operations, and its configuration.
type ActionReport struct {
	Invocation *plan.ActionInvocation
	// Declared is where the action block is written; Trigger where the
	// action_trigger block that fires it is; nil when unknown (Trigger
	// also for an invocation -invoke asked for).
	Declared, Trigger *hcl.Range
	// Operation is the operation the invocation runs within, with what it
	// waits for and what waits for it; nil for an invocation -invoke asked
	// for, which runs once every operation is done.
	Operation *Operation
	// Config is the action block as the plan shows it, sensitive values
	// redacted.
	Config string
	// DestroyPlan is set when the plan destroys everything: no action's
	// failure blocks it.
	DestroyPlan bool
}

// explainActions explains the invocations of p that addr (an action
// address) names: every instance of the action block when addr has no
// instance key.
func explainActions(p *plan.Plan, g *apply.Graph, src *sources, addr Address, schemas ui.SchemaSource, steps map[apply.Op]int) []ActionReport {
	var out []ActionReport
	for _, ai := range p.ActionInvocations {
		if !addr.matchesAction(ai.Addr) {
			continue
		}
		r := ActionReport{Invocation: ai, Config: ui.RenderInvocation(ai, schemas), DestroyPlan: p.Mode == plan.DestroyMode}
		if m := src.module(ai.Addr.Module); m != nil && m.Actions[ai.Addr.Action] != nil {
			rng := m.Actions[ai.Addr.Action].DeclRange
			r.Declared = &rng
		}
		if t := ai.Trigger; t != nil {
			if rc := src.resource(t.Resource.ContainingResource()); rc != nil && rc.Managed != nil && t.BlockIndex < len(rc.Managed.ActionTriggers) {
				rng := rc.Managed.ActionTriggers[t.BlockIndex].DeclRange
				r.Trigger = &rng
			}
			kind := apply.OpCreate
			if ai.Destroys() {
				kind = apply.OpDelete
			}
			op := apply.Op{Addr: t.Resource, Kind: kind}
			if _, ok := g.Changes[op]; ok {
				eo := explainOp(g, op, steps, src)
				r.Operation = &eo
			}
		}
		out = append(out, r)
	}
	return out
}

// matchesAction reports whether a, an action address, names instance ai.
func (a Address) matchesAction(ai addrs.AbsActionInstance) bool {
	if !a.IsAction || a.Action.Module.String() != ai.Module.String() || a.Action.Action != ai.Action {
		return false
	}
	return a.Action.Key == addrs.NoKey || a.Action.Key == ai.Key
}

// when says when the invocation runs, and what its failure does, in
// words.
func (r ActionReport) when() string {
	ai := r.Invocation
	switch {
	case ai.Trigger == nil:
		return "invoked with -invoke: runs once every operation of the apply is done; if it fails, the apply fails"
	case r.Operation == nil:
		return "fired by a change the operation graph does not carry out"
	case ai.Before():
		return fmt.Sprintf("runs within step %d: %s, after everything it waits for and before the operation starts; %s", r.Operation.Step, r.Operation.Label, r.onFailure())
	}
	return fmt.Sprintf("runs within step %d: %s, once the operation's result is recorded in state and before anything that waits for it starts; %s", r.Operation.Step, r.Operation.Label, r.onFailure())
}

// onFailure says what a failure of a triggered invocation does, as apply
// treats it.
func (r ActionReport) onFailure() string {
	t := r.Invocation.Trigger
	switch {
	case r.DestroyPlan && r.Invocation.Destroys():
		return "if it fails, a warning says so: destroying everything is never blocked by an action"
	case t.OnFailure == config.OnFailureContinue:
		return "if it fails, a warning says so and the apply goes on (on_failure = continue)"
	case t.OnFailure == config.OnFailureTaint && t.Event == config.AfterCreate:
		return "if it fails, the new object is recorded tainted, to be replaced by the next plan, and the apply fails (on_failure = taint)"
	case r.Invocation.Before():
		return "if it fails, the operation does not run and the apply fails"
	}
	return "if it fails, the apply fails and nothing that waits for the operation starts"
}

func writeActionReport(b *strings.Builder, r ActionReport) {
	ai := r.Invocation
	fmt.Fprintf(b, "%s\n", ai.Addr)
	if r.Declared != nil {
		fmt.Fprintf(b, "  declared at %s\n", pos(*r.Declared))
	}
	fmt.Fprintf(b, "  provider: %s\n", ai.ProviderConfig)
	if t := ai.Trigger; t != nil {
		fmt.Fprintf(b, "  triggered by %s: %s, on_failure = %s", t.Resource, t.Event, plan.OnFailureKeyword(t.OnFailure))
		if r.Trigger != nil {
			fmt.Fprintf(b, " (action_trigger at %s)", pos(*r.Trigger))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "  %s\n", r.when())
	if op := r.Operation; op != nil {
		if ai.Before() {
			writeEdges(b, "runs after", op.WaitsFor)
			fmt.Fprintf(b, "    runs before:\n      step %d: %s\n", op.Step, op.Label)
		} else {
			fmt.Fprintf(b, "    runs after:\n      step %d: %s\n", op.Step, op.Label)
			writeEdges(b, "runs before", op.WaitedForBy)
		}
	}
	b.WriteString("  configuration:\n")
	for _, line := range strings.Split(strings.TrimRight(r.Config, "\n"), "\n") {
		fmt.Fprintf(b, "%s\n", line)
	}
}

type actionReportJSON struct {
	Address   string       `json:"address"`
	Provider  string       `json:"provider"`
	Declared  *rangeJSON   `json:"declared,omitempty"`
	Invoked   bool         `json:"invoked,omitempty"`
	Trigger   *triggerJSON `json:"trigger,omitempty"`
	When      string       `json:"when"`
	Operation string       `json:"operation,omitempty"`
	Step      int          `json:"step,omitempty"`
	// RunsAfter and RunsBefore are the operations it waits for and those
	// that wait for it.
	RunsAfter  []edgeJSON `json:"runs_after"`
	RunsBefore []edgeJSON `json:"runs_before"`
	Config     string     `json:"config"`
}

type triggerJSON struct {
	Resource  string     `json:"resource"`
	Event     string     `json:"event"`
	OnFailure string     `json:"on_failure"`
	Range     *rangeJSON `json:"range,omitempty"`
}

func actionReportsJSON(rs []ActionReport) []actionReportJSON {
	var out []actionReportJSON
	for _, r := range rs {
		ai := r.Invocation
		j := actionReportJSON{Address: ai.Addr.String(), Provider: ai.ProviderConfig.String(), Declared: rangeOf(r.Declared),
			Invoked: ai.Trigger == nil, When: r.when(), RunsAfter: []edgeJSON{}, RunsBefore: []edgeJSON{}, Config: r.Config}
		if t := ai.Trigger; t != nil {
			j.Trigger = &triggerJSON{Resource: t.Resource.String(), Event: t.Event.String(), OnFailure: plan.OnFailureKeyword(t.OnFailure), Range: rangeOf(r.Trigger)}
		}
		if op := r.Operation; op != nil {
			j.Operation, j.Step = op.Label, op.Step
			self := []Edge{{Label: op.Label, Step: op.Step}}
			within := edgesJSON(self)
			within[0].Rule, within[0].Description = "within", "the action runs within this operation"
			if ai.Before() {
				j.RunsAfter, j.RunsBefore = edgesJSON(op.WaitsFor), within
			} else {
				j.RunsAfter, j.RunsBefore = within, edgesJSON(op.WaitedForBy)
			}
		}
		out = append(out, j)
	}
	return out
}
