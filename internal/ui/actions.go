package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// ActionSchemaSource is a SchemaSource that also knows action schemas;
// plans render an action's configuration with it when it does.
type ActionSchemaSource interface {
	ActionSchema(p addrs.Provider, typeName string) (provider.Schema, bool)
}

// ActionSchema implements ActionSchemaSource.
func (m ProviderSchemas) ActionSchema(p addrs.Provider, typeName string) (provider.Schema, bool) {
	s := m[p]
	if s == nil {
		return provider.Schema{}, false
	}
	sch, ok := s.Actions[typeName]
	return sch, ok && sch.Block != nil
}

// invocationIdentity names a running invocation in the human output:
// "action.x.y (triggered by aws_instance.a)", "(triggered by CLI)" for an
// invoked one.
func invocationIdentity(ai *plan.ActionInvocation) string {
	by := "CLI"
	if ai.Trigger != nil {
		by = ai.Trigger.Resource.String()
	}
	return fmt.Sprintf("%s (triggered by %s)", ai.Addr, by)
}

// renderInvocation renders one invocation as a plan shows it: a comment
// with its address, then the action block with its configuration.
func renderInvocation(ai *plan.ActionInvocation, schemas SchemaSource, o ropts) string {
	var b strings.Builder
	fmt.Fprintf(&b, "    # %s\n", ai.Addr)
	fmt.Fprintf(&b, "    action %q %q {\n", ai.Addr.Action.Type, ai.Addr.Action.Name)
	if ai.Config != cty.NilVal && !ai.Config.IsNull() {
		var blk *provider.Block
		if as, ok := schemas.(ActionSchemaSource); ok {
			if sch, ok := as.ActionSchema(ai.ProviderConfig.Provider, ai.Addr.Action.Type); ok {
				blk = sch.Block
			}
		}
		set := pathSet{}
		v := unmarkInto(ai.Config, set)
		if blk == nil {
			blk = fallbackBlock(v)
		}
		addSchemaSensitive(blk, v, nil, set)
		// Shown as created: an unknown value reads "(known after apply)".
		d := &differ{before: pathSet{}, after: set}
		n := d.block(side{v: cty.NullVal(v.Type())}, side{v: v}, blk)
		var cb strings.Builder
		ro := o
		ro.showUnchanged, ro.hideSymbols = true, true
		n.render(&cb, 0, ro)
		b.WriteString("        config ")
		b.WriteString(strings.ReplaceAll(cb.String(), "\n", "\n        "))
		b.WriteString("\n")
	}
	b.WriteString("    }\n")
	return b.String()
}

// renderTriggeredActions renders the invocations c fires, before and after
// its operation, below its block; "" when it fires none.
func renderTriggeredActions(p *plan.Plan, c *plan.ResourceInstanceChange, schemas SchemaSource, o ropts) string {
	if len(p.ActionInvocations) == 0 || c.Deposed != addrs.NotDeposed {
		return ""
	}
	var b strings.Builder
	for _, before := range []bool{true, false} {
		ais := p.ActionsFor(c.Addr, before)
		if len(ais) == 0 {
			continue
		}
		when := "after"
		if before {
			when = "before"
		}
		b.WriteString(o.c(fmt.Sprintf("\n\n    [bold]# Actions to be invoked %s this change in order:[reset]\n", when)))
		for _, ai := range ais {
			b.WriteString(renderInvocation(ai, schemas, o))
		}
	}
	return b.String()
}

// renderInvokedActions renders the invocations -invoke asked for: ""
// when there are none.
func renderInvokedActions(p *plan.Plan, schemas SchemaSource, o ropts) string {
	var parts []string
	for _, ai := range p.ActionInvocations {
		if ai.Trigger == nil {
			parts = append(parts, o.c(fmt.Sprintf("  [bold]# %s[reset] will be invoked", ai.Addr))+"\n"+renderInvocation(ai, schemas, o))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return o.c("\nrig will invoke the following action(s):\n\n") + strings.Join(parts, "\n") + "\n"
}

// actionAddrJSON is an action instance's address in -json messages.
func actionAddrJSON(a addrs.AbsActionInstance) jsonformat.ActionAddr {
	key := "null"
	if !a.Key.IsNone() {
		key = keyJSON(a.Key)
	}
	implied := a.Action.Type
	if i := strings.IndexByte(implied, '_'); i > 0 {
		implied = implied[:i]
	}
	return jsonformat.ActionAddr{
		Addr: a.String(), Module: a.Module.String(), Action: a.Action.String() + a.Key.String(),
		ImpliedProvider: implied, ActionType: a.Action.Type, ActionName: a.Action.Name, ActionKey: json.RawMessage(key),
	}
}

// PlannedActionInvocation writes a "planned_action_invocation" message.
func (v *JSONView) PlannedActionInvocation(ai *plan.ActionInvocation) {
	j := jsonformat.ActionInvocation{Action: actionAddrJSON(ai.Addr)}
	if t := ai.Trigger; t != nil {
		j.LifecycleTrigger = &jsonformat.ActionInvocationLifecycle{
			TriggeringResource: resourceToJSON(t.Resource), TriggeringEvent: plan.EventName(t.Event),
			ActionTriggerBlockIndex: t.BlockIndex, ActionsListIndex: t.ActionIndex, OnFailure: plan.OnFailureName(t.OnFailure),
		}
	} else {
		j.InvokeTrigger = &struct{}{}
	}
	v.emit("info", "planned action invocation: "+j.Action.Action, "planned_action_invocation", map[string]any{"invocation": j})
}

func actionHook(ai *plan.ActionInvocation) jsonformat.ActionHook {
	h := jsonformat.ActionHook{Action: actionAddrJSON(ai.Addr)}
	if t := ai.Trigger; t != nil {
		h.Lifecycle = &jsonformat.ActionHookLifecycle{Resource: resourceToJSON(t.Resource), TriggerIndex: t.BlockIndex,
			ActionsIndex: t.ActionIndex, TriggerEvent: plan.EventName(t.Event), OnFailure: plan.OnFailureName(t.OnFailure)}
	} else {
		h.Invoke = &struct{}{}
	}
	return h
}

var _ apply.ActionHooks = (*JSONView)(nil)

// ActionStart writes "action_start".
func (v *JSONView) ActionStart(ai *plan.ActionInvocation) {
	msg := "Action started: " + ai.Addr.String()
	if t := ai.Trigger; t != nil {
		msg = fmt.Sprintf("%s.trigger[%d]: %s", t.Resource, t.BlockIndex, msg)
	}
	v.emit("info", msg, "action_start", map[string]any{"hook": actionHook(ai)})
}

// ActionProgress writes "action_progress".
func (v *JSONView) ActionProgress(ai *plan.ActionInvocation, message string) {
	msg := fmt.Sprintf("%s - %s", ai.Addr, message)
	if t := ai.Trigger; t != nil {
		msg = fmt.Sprintf("%s (%d): %s", t.Resource, t.BlockIndex, msg)
	}
	h := actionHook(ai)
	h.Message = &message
	v.emit("info", msg, "action_progress", map[string]any{"hook": h})
}

// ActionComplete writes "action_complete", or "action_errored" when err is
// not nil.
func (v *JSONView) ActionComplete(ai *plan.ActionInvocation, err error) {
	h := actionHook(ai)
	prefix := ""
	if t := ai.Trigger; t != nil {
		prefix = fmt.Sprintf("%s (%d): ", t.Resource, t.BlockIndex)
	}
	if err != nil {
		e := err.Error()
		h.Error = &e
		v.emit("error", fmt.Sprintf("%sAction errored: %s - %s", prefix, ai.Addr, e), "action_errored", map[string]any{"hook": h})
		return
	}
	v.emit("info", fmt.Sprintf("%sAction complete: %s", prefix, ai.Addr), "action_complete", map[string]any{"hook": h})
}

var _ apply.ActionHooks = (*HumanHooks)(nil)

// ActionStart prints "Action started: ADDR (triggered by RESOURCE)".
func (h *HumanHooks) ActionStart(ai *plan.ActionInvocation) {
	h.println("[reset][bold]Action started: %s[reset]", invocationIdentity(ai))
}

// ActionProgress prints a progress message of a running action.
func (h *HumanHooks) ActionProgress(ai *plan.ActionInvocation, message string) {
	h.println("[reset][bold]Action %s:[reset] %s[reset]", invocationIdentity(ai), message)
}

// ActionComplete prints "Action complete: …" or "Action failed: … - ERR".
func (h *HumanHooks) ActionComplete(ai *plan.ActionInvocation, err error) {
	if err != nil {
		h.println("[reset][bold][red]Action failed: %s - %v[reset]", invocationIdentity(ai), err)
		return
	}
	h.println("[reset][bold][green]Action complete: %s[reset]", invocationIdentity(ai))
}

var _ apply.ActionHooks = (*CountHooks)(nil)

// ActionStart does nothing.
func (c *CountHooks) ActionStart(*plan.ActionInvocation) {}

// ActionProgress does nothing.
func (c *CountHooks) ActionProgress(*plan.ActionInvocation, string) {}

// ActionComplete counts an invocation, and a failed one.
func (c *CountHooks) ActionComplete(_ *plan.ActionInvocation, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.invoked++
	if err != nil {
		c.failed++
	}
}

var _ apply.ActionHooks = MultiHooks(nil)

// ActionStart implements apply.ActionHooks.
func (hs MultiHooks) ActionStart(ai *plan.ActionInvocation) {
	for _, h := range hs {
		if a, ok := h.(apply.ActionHooks); ok {
			a.ActionStart(ai)
		}
	}
}

// ActionProgress implements apply.ActionHooks.
func (hs MultiHooks) ActionProgress(ai *plan.ActionInvocation, message string) {
	for _, h := range hs {
		if a, ok := h.(apply.ActionHooks); ok {
			a.ActionProgress(ai, message)
		}
	}
}

// ActionComplete implements apply.ActionHooks.
func (hs MultiHooks) ActionComplete(ai *plan.ActionInvocation, err error) {
	for _, h := range hs {
		if a, ok := h.(apply.ActionHooks); ok {
			a.ActionComplete(ai, err)
		}
	}
}

// invocationToJSON returns an invocation as the JSON plan lists it.
func invocationToJSON(ai *plan.ActionInvocation) (jsonformat.PlanActionInvocation, error) {
	j := jsonformat.PlanActionInvocation{Address: ai.Addr.String(), Type: ai.Addr.Action.Type, Name: ai.Addr.Action.Name,
		ProviderName: ai.ProviderConfig.Provider.String()}
	set := pathSet{}
	v := cty.NullVal(cty.DynamicPseudoType)
	if ai.Config != cty.NilVal {
		v = unmarkInto(ai.Config, set)
	}
	known, unknown := v, cty.EmptyObjectVal
	if !v.IsWhollyKnown() {
		known, unknown = omitUnknowns(v), unknownAsBool(v)
	}
	var err error
	if !v.IsNull() {
		if j.ConfigValues, err = marshalValue(known); err != nil {
			return j, err
		}
	}
	if j.ConfigSensitive, err = marshalValue(sensitiveAsBool(v, nil, set)); err != nil {
		return j, err
	}
	if j.ConfigUnknown, err = marshalValue(unknown); err != nil {
		return j, err
	}
	if t := ai.Trigger; t != nil {
		j.Lifecycle = &jsonformat.PlanActionLifecycle{TriggeringResourceAddress: t.Resource.String(), ActionTriggerEvent: plan.EventName(t.Event),
			ActionTriggerBlockIndex: t.BlockIndex, ActionsListIndex: t.ActionIndex, OnFailure: plan.OnFailureName(t.OnFailure)}
	} else {
		j.Invoke = &jsonformat.PlanActionInvokeTrigger{}
	}
	return j, nil
}
