package planner

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// EventsOf returns the action_trigger events among events that a change
// with action a fires, in the order given: a create (or the create half
// of a replacement) fires the create events, an update the update
// events, a delete (or the delete half of a replacement) the destroy
// events. Forgetting an object fires nothing.
func EventsOf(events []config.ActionEvent, a plan.Action) []config.ActionEvent {
	var out []config.ActionEvent
	for _, e := range events {
		var fires bool
		switch e {
		case config.BeforeCreate, config.AfterCreate:
			fires = a == plan.Create || a.IsReplace() || a == plan.ForgetThenCreate
		case config.BeforeUpdate, config.AfterUpdate:
			fires = a == plan.Update
		case config.BeforeDestroy, config.AfterDestroy:
			fires = a == plan.Delete || a.IsReplace()
		}
		if fires {
			out = append(out, e)
		}
	}
	return out
}

// ActionProvider returns the provider configuration action a of module m
// uses: its provider argument's, or the default configuration of the
// provider its type implies.
func ActionProvider(m *config.Module, a *config.Action) addrs.AbsProviderConfig {
	alias := ""
	if a.Provider != nil {
		alias = a.Provider.Alias
	}
	return ResolveProviderConfig(m, config.ActionProviderName(a), alias)
}

// ActionSchema returns the schema of action a's type from provider pc.
func ActionSchema(ctx context.Context, set *provider.Set, pc addrs.AbsProviderConfig, a *config.Action) (provider.Schema, diag.Diagnostics) {
	schemas, ds := set.Schemas(ctx, pc.Provider)
	if ds.HasErrors() {
		return provider.Schema{}, ds
	}
	sch, ok := schemas.Actions[a.Addr.Type]
	if !ok || sch.Block == nil {
		return sch, ds.Append(diag.At(a.TypeRange, "Invalid action type",
			fmt.Sprintf("The provider %s does not support action type %q.", pc.Provider.ForDisplay(), a.Addr.Type)))
	}
	return sch, ds
}

// ActionInstanceKey evaluates an action_trigger entry's instance key with
// the triggering instance's count/each data.
func ActionInstanceKey(ref config.ActionRef, inst lang.InstanceData, scope *lang.Scope) (addrs.InstanceKey, diag.Diagnostics) {
	var keyExpr hcl.Expression
	switch e := ref.Expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		if len(e.Traversal) == 4 {
			if idx, ok := e.Traversal[3].(hcl.TraverseIndex); ok {
				k, err := addrs.KeyFromValue(idx.Key)
				if err != nil {
					return addrs.NoKey, diag.Diagnostics{diag.At(e.Range(), "Invalid action instance key", err.Error())}
				}
				return k, nil
			}
		}
		return addrs.NoKey, nil
	case *hclsyntax.IndexExpr:
		keyExpr = e.Key
	default:
		return addrs.NoKey, nil
	}
	v, ds := scope.EvalExpr(keyExpr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return addrs.NoKey, ds
	}
	if !v.IsKnown() || v.IsNull() {
		return addrs.NoKey, ds.Append(diag.At(keyExpr.Range(), "Invalid action instance key", "The instance key of an action must be known when the plan is made."))
	}
	k, err := addrs.KeyFromValue(v)
	if err != nil {
		return addrs.NoKey, ds.Append(diag.At(keyExpr.Range(), "Invalid action instance key", err.Error()))
	}
	return k, ds
}

// EvalActionConfig evaluates instance key of action a in module instance
// mi with schema sch: its count or for_each first (the key must be one of
// the instances they make), then its config block with the triggering
// resource instance's object as self (cty.NilVal for none). An action
// without a config block has a null configuration.
func EvalActionConfig(ev *eval.Evaluator, a *config.Action, mi addrs.ModuleInstance, key addrs.InstanceKey, sch provider.Schema, self cty.Value, callRange hcl.Range) (cty.Value, diag.Diagnostics) {
	ty := sch.Block.ImpliedType()
	exp, ds := eval.ExpandRepetition(ev.Scope(mi, lang.InstanceData{}), a.Count, a.ForEach)
	if ds.HasErrors() {
		return cty.UnknownVal(ty), ds
	}
	inst := a.Addr.Instance(mi, key)
	if !exp.Has(key) {
		return cty.UnknownVal(ty), ds.Append(diag.At(callRange, "Reference to non-existent action instance",
			fmt.Sprintf("The address %s does not identify an instance of %s", inst, inst.ConfigString())))
	}
	if a.Config == nil {
		return cty.NullVal(ty), ds
	}
	scope := ev.Scope(mi, exp.InstanceData(key))
	if self != cty.NilVal {
		scope.Self = self
	}
	v, more := scope.EvalBlock(a.Config, sch.Block.DecoderSpec())
	ds = ds.Append(more)
	if !v.IsWhollyKnown() && ds.HasErrors() {
		return cty.UnknownVal(ty), ds
	}
	return v, ds
}

// KeyInstanceData returns the count/each data of an instance known only by
// its key (an object whose for_each element is gone: each.value is not
// available).
func KeyInstanceData(k addrs.InstanceKey) lang.InstanceData {
	switch {
	case k.IsInt():
		return lang.InstanceData{CountIndex: cty.NumberIntVal(int64(k.Int()))}
	case k.IsString():
		return lang.InstanceData{EachKey: cty.StringVal(k.Str())}
	}
	return lang.InstanceData{}
}

// TriggerHolds evaluates an action_trigger's condition in scope: true when
// there is none; an unknown condition holds (apply evaluates it again).
func TriggerHolds(at *config.ActionTrigger, scope *lang.Scope) (holds, known bool, ds diag.Diagnostics) {
	if at.Condition == nil {
		return true, true, nil
	}
	v, ds := scope.EvalExpr(at.Condition, cty.Bool)
	if ds.HasErrors() {
		return false, true, ds
	}
	if !v.IsKnown() {
		return true, false, ds
	}
	if v.IsNull() {
		return false, true, ds.Append(diag.At(at.Condition.Range(), "Invalid action trigger condition", "The condition must not be null."))
	}
	v, _ = v.Unmark()
	return v.True(), true, ds
}

// planActionTriggers plans the invocations change fires: each entry of
// each action_trigger of r whose events the change has and whose condition
// holds, its configuration evaluated and checked by the provider
// (PlanAction).
func (p *planner) planActionTriggers(r *config.Resource, change *plan.ResourceInstanceChange, inst lang.InstanceData) diag.Diagnostics {
	if r == nil || r.Managed == nil || len(r.Managed.ActionTriggers) == 0 || change.Deposed != addrs.NotDeposed {
		return nil
	}
	var ds diag.Diagnostics
	addr := change.Addr
	m := p.cfg.Descendant(addr.Module.Module())
	if m == nil {
		return nil
	}
	scope := p.eval.Scope(addr.Module, inst)
	var out []*plan.ActionInvocation
	for bi, at := range r.Managed.ActionTriggers {
		events := EventsOf(at.Events, change.Action)
		if len(events) == 0 {
			continue
		}
		holds, _, more := TriggerHolds(at, scope)
		if ds = ds.Append(more); more.HasErrors() || !holds {
			continue
		}
		for _, ev := range events {
			for ri, ref := range at.Actions {
				a := m.Actions[ref.Action]
				if a == nil {
					continue
				}
				ai, more := p.planInvocation(m, a, ref, addr, inst, change, ev)
				if ds = ds.Append(more); more.HasErrors() {
					continue
				}
				ai.Trigger = &plan.ActionTrigger{Resource: addr, Event: ev, BlockIndex: bi, ActionIndex: ri, OnFailure: at.OnFailure}
				out = append(out, ai)
			}
		}
	}
	if len(out) > 0 {
		p.mu.Lock()
		p.invocations = append(p.invocations, out...)
		p.mu.Unlock()
	}
	return ds
}

// planInvocation plans one entry of an action_trigger for event ev.
func (p *planner) planInvocation(m *config.Module, a *config.Action, ref config.ActionRef, addr addrs.AbsResourceInstance, inst lang.InstanceData, change *plan.ResourceInstanceChange, ev config.ActionEvent) (*plan.ActionInvocation, diag.Diagnostics) {
	key, ds := ActionInstanceKey(ref, inst, p.eval.Scope(addr.Module, inst))
	if ds.HasErrors() {
		return nil, ds
	}
	pc := ActionProvider(m, a)
	sch, more := ActionSchema(p.ctx, p.providers, pc, a)
	if ds = ds.Append(more); ds.HasErrors() {
		return nil, ds
	}
	self := change.After
	destroying := ev == config.BeforeDestroy || ev == config.AfterDestroy
	if destroying {
		self = change.BeforeValue()
	}
	cfg, more := EvalActionConfig(p.eval, a, addr.Module, key, sch, self, ref.Expr.Range())
	if ds = ds.Append(more); ds.HasErrors() {
		return nil, ds
	}
	if destroying && !cfg.IsWhollyKnown() {
		return nil, ds.Append(diag.At(a.DeclRange, "Unknown action config", "Action configuration must be known to plan a destroy action."))
	}
	if destroying && marks.ContainsEphemeral(cfg) {
		return nil, ds.Append(diag.At(a.DeclRange, "Action config contains ephemeral values", "A destroy action configuration must be fully planned, and cannot contain ephemeral values."))
	}
	prov, more := p.configuredProvider(pc)
	if ds = ds.Append(more); ds.HasErrors() {
		return nil, ds
	}
	ap, ok := provider.AsActions(prov)
	if !ok {
		return nil, ds.Append(diag.At(a.TypeRange, "Invalid action type",
			fmt.Sprintf("The provider %s does not support actions.", pc.Provider.ForDisplay())))
	}
	unmarked, _ := cfg.UnmarkDeep()
	inv := a.Addr.Instance(addr.Module, key)
	for _, d := range ap.PlanAction(p.ctx, provider.ActionRequest{TypeName: a.Addr.Type, Config: unmarked}) {
		if d.Subject == nil {
			d.Subject = a.DeclRange.Ptr()
		}
		if d.Address == nil {
			d.Address = inv
		}
		ds = ds.Append(d)
	}
	if ds.HasErrors() {
		return nil, ds
	}
	// The plan keeps no ephemeral value: apply evaluates the configuration
	// of a create or update event again.
	return &plan.ActionInvocation{Addr: inv, ProviderConfig: pc, Config: marks.WithoutEphemeral(cfg)}, ds
}

// sortedInvocations returns the planned invocations in plan order.
func (p *planner) sortedInvocations() []*plan.ActionInvocation {
	if len(p.invocations) == 0 {
		return nil
	}
	out := slices.Clone(p.invocations)
	slices.SortStableFunc(out, plan.CompareActionInvocations)
	return out
}

// actionTriggerReferences returns the references of r's action triggers:
// their conditions, and the count, for_each and configuration (read
// without the action's schema) of each action they name. The actions run
// as part of r's operations, so what they refer to comes first.
func actionTriggerReferences(ds *diag.Diagnostics, m *config.Module, r *config.Resource) []*lang.Reference {
	var refs []*lang.Reference
	seen := map[addrs.Action]bool{}
	for _, at := range r.Managed.ActionTriggers {
		refs = append(refs, exprRefs(ds, at.Condition)...)
		for _, ref := range at.Actions {
			a := m.Actions[ref.Action]
			if a == nil || seen[ref.Action] {
				continue
			}
			seen[ref.Action] = true
			refs = append(refs, exprRefs(ds, a.Count, a.ForEach)...)
			if a.Config != nil {
				more, d := lang.ReferencesInAnyBody(a.Config)
				*ds = ds.Append(d)
				refs = append(refs, more...)
			}
		}
	}
	return refs
}

// planInvoked plans the invocations -invoke asked for: each action
// instance must be declared and exist, and its configuration (evaluated
// without self) pass the provider's PlanAction.
func (p *planner) planInvoked(invoke []addrs.AbsActionInstance) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, addr := range invoke {
		m := p.cfg.Descendant(addr.Module.Module())
		var a *config.Action
		if m != nil {
			a = m.Actions[addr.Action]
		}
		if a == nil || !slices.Contains(p.eval.ModuleInstances(addr.Module.Module()), addr.Module) {
			ds = ds.Append(diag.Errorf("Reference to undeclared action",
				"The configuration declares no action %s: -invoke names an action block (action.TYPE.NAME, with its instance key when it has count or for_each).", addr))
			continue
		}
		pc := ActionProvider(m, a)
		sch, more := ActionSchema(p.ctx, p.providers, pc, a)
		if ds = ds.Append(more); more.HasErrors() {
			continue
		}
		cfg, more := EvalActionConfig(p.eval, a, addr.Module, addr.Key, sch, cty.NilVal, a.DeclRange)
		if ds = ds.Append(more); more.HasErrors() {
			continue
		}
		if !cfg.IsWhollyKnown() {
			ds = ds.Append(diag.At(a.DeclRange, "Unknown action config", "The configuration of an invoked action must be known when the plan is made."))
			continue
		}
		prov, more := p.configuredProvider(pc)
		if ds = ds.Append(more); more.HasErrors() {
			continue
		}
		ap, ok := provider.AsActions(prov)
		if !ok {
			ds = ds.Append(diag.At(a.TypeRange, "Invalid action type", fmt.Sprintf("The provider %s does not support actions.", pc.Provider.ForDisplay())))
			continue
		}
		unmarked, _ := cfg.UnmarkDeep()
		more = ap.PlanAction(p.ctx, provider.ActionRequest{TypeName: a.Addr.Type, Config: unmarked})
		for i := range more {
			if more[i].Subject == nil {
				more[i].Subject = a.DeclRange.Ptr()
			}
		}
		if ds = ds.Append(more); more.HasErrors() {
			continue
		}
		p.invocations = append(p.invocations, &plan.ActionInvocation{Addr: addr, ProviderConfig: pc, Config: cfg})
	}
	return ds
}

// validateActions checks every action block of the tree against its
// provider's action schema, with all referenced values unknown: an action
// type the provider does not have, unsupported arguments and type errors
// are reported whether or not anything triggers the action.
func validateActions(ctx context.Context, cfg *config.Module, providers *provider.Set, ev *eval.Evaluator) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range cfg.AllModules() {
		if len(m.Actions) == 0 {
			continue
		}
		scope := validationScope(m, ev.FunctionsOf(m), ev.Cwd)
		for _, key := range slices.SortedFunc(maps.Keys(m.Actions), func(a, b addrs.Action) int { return strings.Compare(a.String(), b.String()) }) {
			a := m.Actions[key]
			sch, more := ActionSchema(ctx, providers, ActionProvider(m, a), a)
			if ds = ds.Append(more); more.HasErrors() || a.Config == nil {
				continue
			}
			s := *scope
			s.Self = cty.DynamicVal
			switch {
			case a.Count != nil:
				s.Instance.CountIndex = cty.UnknownVal(cty.Number)
			case a.ForEach != nil:
				s.Instance.EachKey, s.Instance.EachValue = cty.UnknownVal(cty.String), cty.DynamicVal
			}
			val, more := s.EvalBlock(a.Config, sch.Block.DecoderSpec())
			if ds = ds.Append(more); !more.HasErrors() {
				ds = ds.Append(validateActionWithProvider(ctx, providers, m, a, val))
			}
		}
	}
	return ds
}
