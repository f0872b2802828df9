package apply

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// ActionHooks observes the actions an apply runs. A Hooks that implements
// it is told of each invocation's start, of every progress message its
// provider streams, and of its end (err nil on success). Methods may be
// called concurrently.
type ActionHooks interface {
	ActionStart(ai *plan.ActionInvocation)
	ActionProgress(ai *plan.ActionInvocation, message string)
	ActionComplete(ai *plan.ActionInvocation, err error)
}

// TriggeredActions returns the invocations of p that operation op of
// change c runs before (or after) it carries the change out, in order:
// the destroy events' for a delete, the create and update events'
// otherwise. Apply runs them within the operation: a before_* action once
// everything op waits for is done, an after_* one once op's result is
// durable and before anything that waits for op starts.
func TriggeredActions(p *plan.Plan, op Op, c *plan.ResourceInstanceChange, before bool) []*plan.ActionInvocation {
	if p == nil || len(p.ActionInvocations) == 0 || op.IsBarrier() || c == nil || c.Deposed != addrs.NotDeposed || c.Action == plan.NoOp || c.Action == plan.Read {
		return nil
	}
	var out []*plan.ActionInvocation
	for _, ai := range p.ActionsFor(op.Addr, before) {
		if ai.Destroys() == (op.Kind == OpDelete) {
			out = append(out, ai)
		}
	}
	return out
}

// runActions runs the invocations op's change fires before or after the
// operation, in order, self being the object they are triggered for (the
// planned one before, the new one after; the prior one for a destroy). It
// stops at the first that fails unless its trigger says to continue
// (whose failure, like every failure in a destroy plan, is a warning).
// taint says an after_create action failed with on_failure = taint.
func (a *applier) runActions(op Op, c *plan.ResourceInstanceChange, before bool, self cty.Value) (taint bool, ds diag.Diagnostics) {
	for _, ai := range TriggeredActions(a.plan, op, c, before) {
		more := a.invokeTriggered(ai, self)
		if !more.HasErrors() {
			ds = ds.Append(more)
			continue
		}
		onFailure := ai.Trigger.OnFailure
		if ai.Destroys() && a.plan.Mode == plan.DestroyMode {
			// Destroying everything is never blocked by an action.
			onFailure = config.OnFailureContinue
		}
		switch onFailure {
		case config.OnFailureContinue:
			ds = ds.Append(asWarnings(more))
		case config.OnFailureTaint:
			return ai.Trigger.Event == config.AfterCreate, ds.Append(more)
		default:
			return false, ds.Append(more)
		}
	}
	return false, ds
}

// invokeTriggered runs one triggered invocation. For a create or update
// event, its trigger's condition is evaluated again (it is skipped when it
// no longer holds), and so is its configuration; a destroy event's runs as
// planned.
func (a *applier) invokeTriggered(ai *plan.ActionInvocation, self cty.Value) diag.Diagnostics {
	var ds diag.Diagnostics
	cfg := ai.Config
	if !ai.Destroys() {
		r := a.cfg.ConfigResource(ai.Trigger.Resource.ContainingResource().InConfig())
		m := a.cfg.Descendant(ai.Addr.Module.Module())
		if r == nil || r.Managed == nil || m == nil || ai.Trigger.BlockIndex >= len(r.Managed.ActionTriggers) {
			return ds.Append(diag.Errorf("Action not in configuration", "The plan invokes %s for %s, but the configuration no longer has its action_trigger.", ai.Addr, ai.Trigger.Resource))
		}
		exp, more := a.expansion(ai.Trigger.Resource.ContainingResource(), r)
		if ds = ds.Append(more); ds.HasErrors() {
			return ds
		}
		inst := exp.InstanceData(ai.Trigger.Resource.Resource.Key)
		holds, known, more := planner.TriggerHolds(r.Managed.ActionTriggers[ai.Trigger.BlockIndex], a.eval.Scope(ai.Trigger.Resource.Module, inst))
		if ds = ds.Append(more); ds.HasErrors() {
			return ds
		}
		if !known {
			at := r.Managed.ActionTriggers[ai.Trigger.BlockIndex]
			return ds.Append(diag.At(at.Condition.Range(), "Unknown condition when invoking action before apply", "The action trigger condition must be known before it can be invoked."))
		}
		if !holds {
			return ds
		}
		// As Terraform does, the configuration is evaluated again with what
		// is known now (and the ephemeral values the plan left out).
		act := m.Actions[ai.Addr.Action]
		if act == nil {
			return ds.Append(diag.Errorf("Action not in configuration", "The plan invokes %s, but the configuration no longer declares it.", ai.Addr))
		}
		sch, more := planner.ActionSchema(a.opCtx, a.set, ai.ProviderConfig, act)
		if ds = ds.Append(more); ds.HasErrors() {
			return ds
		}
		cfg, more = planner.EvalActionConfig(a.eval, act, ai.Addr.Module, ai.Addr.Key, sch, self, act.DeclRange)
		if ds = ds.Append(more); ds.HasErrors() {
			return ds
		}
	}
	return ds.Append(a.invoke(ai, cfg))
}

// invoke runs one invocation with configuration cfg, which must be
// wholly known, telling the hooks of its start, progress and end.
func (a *applier) invoke(ai *plan.ActionInvocation, cfg cty.Value) diag.Diagnostics {
	var ds diag.Diagnostics
	if !cfg.IsWhollyKnown() {
		return ds.Append(diag.Errorf("Unknown action config", "The configuration of %s must be known when it is invoked.", ai.Addr))
	}
	prov, more := a.provider(ai.ProviderConfig)
	if ds = ds.Append(more); ds.HasErrors() {
		return ds
	}
	ap, ok := provider.AsActions(prov)
	if !ok {
		return ds.Append(diag.Errorf("Invalid action type", "The provider %s does not support actions.", ai.ProviderConfig.Provider.ForDisplay()))
	}
	hooks, _ := a.opts.Hooks.(ActionHooks)
	if hooks != nil {
		hooks.ActionStart(ai)
	}
	unmarked, _ := cfg.UnmarkDeep()
	more = ap.InvokeAction(a.opCtx, provider.ActionRequest{TypeName: ai.Addr.Action.Type, Config: unmarked}, func(msg string) {
		if hooks != nil {
			hooks.ActionProgress(ai, msg)
		}
	})
	// As Terraform words them: "with action.x.y, called from RESOURCE",
	// at the action block.
	at := ai.Addr.String()
	if ai.Trigger != nil {
		at += ", called from " + ai.Trigger.Resource.String()
	}
	var decl *hcl.Range
	if m := a.cfg.Descendant(ai.Addr.Module.Module()); m != nil && m.Actions[ai.Addr.Action] != nil {
		decl = m.Actions[ai.Addr.Action].DeclRange.Ptr()
	}
	var failure error
	for i := range more {
		if more[i].Address == "" {
			more[i].Address = at
		}
		if more[i].Subject == nil {
			more[i].Subject = decl
		}
		if more[i].Severity == diag.Error && failure == nil {
			failure = fmt.Errorf("%s: %s", more[i].Summary, more[i].Detail)
		}
	}
	ds = ds.Append(more)
	if hooks != nil {
		hooks.ActionComplete(ai, failure)
	}
	return ds
}

// invokeRequested runs the invocations -invoke asked for, in order,
// stopping at the first that fails.
func (a *applier) invokeRequested(ctx context.Context) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, ai := range a.plan.ActionInvocations {
		if ai.Trigger != nil {
			continue
		}
		if ctx.Err() != nil {
			return ds.Append(diag.Errorf("Operation interrupted", "The apply was interrupted before %s was invoked.", ai.Addr))
		}
		if ds = ds.Append(a.invoke(ai, ai.Config)); ds.HasErrors() {
			return ds
		}
	}
	return ds
}

// taint marks the current object of addr tainted, durably: an after_create
// action that failed with on_failure = taint has it replaced by the next
// plan.
func (a *applier) taint(addr addrs.AbsResourceInstance, pc addrs.AbsProviderConfig) diag.Diagnostics {
	oaddr := addrs.ObjectAddr{Instance: addr}
	err := a.rec.record([]addrs.ObjectAddr{oaddr}, func(s *state.State) {
		if obj := s.Object(oaddr); obj != nil {
			tainted := *obj
			tainted.Status = state.Tainted
			s.SetObject(oaddr, &tainted, pc)
		}
	})
	if err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to persist state", "Tainting %s: %s", addr, err)}
	}
	return nil
}

// asWarnings returns ds with every error made a warning.
func asWarnings(ds diag.Diagnostics) diag.Diagnostics {
	out := make(diag.Diagnostics, len(ds))
	for i, d := range ds {
		d.Severity = diag.Warning
		out[i] = d
	}
	return out
}

// ActionsOf returns the actions operation op runs before (or after) it
// carries out its change (see TriggeredActions); none when the graph was
// built from a plan without any.
func (g *Graph) ActionsOf(op Op, before bool) []*plan.ActionInvocation {
	if len(g.actions) == 0 {
		return nil
	}
	return TriggeredActions(&plan.Plan{ActionInvocations: g.actions}, op, g.Changes[op], before)
}
