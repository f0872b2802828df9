package plan

import (
	"cmp"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/zclconf/go-cty/cty"
)

// ActionInvocation is an action the plan runs: an entry of a resource
// instance's action_trigger fired by an event of its change, or an action
// `apply -invoke` names.
type ActionInvocation struct {
	Addr           addrs.AbsActionInstance
	ProviderConfig addrs.AbsProviderConfig
	// Config is the action's configuration as planned (unknown in parts
	// when it refers to what apply will tell; apply evaluates it again),
	// null when the action block has no config block.
	Config cty.Value
	// Trigger is what fires the action; nil for an invocation -invoke
	// asked for.
	Trigger *ActionTrigger
}

// ActionTrigger is the action_trigger entry an invocation comes from.
type ActionTrigger struct {
	// Resource is the resource instance whose change fires the action.
	Resource addrs.AbsResourceInstance
	Event    config.ActionEvent
	// BlockIndex is the action_trigger block's position in the resource's
	// lifecycle block, ActionIndex the entry's position in its actions.
	BlockIndex, ActionIndex int
	OnFailure               config.ActionOnFailure
}

// Before reports whether the invocation runs before its resource's
// operation (a before_* event); an invoked action is neither.
func (ai *ActionInvocation) Before() bool {
	if ai.Trigger == nil {
		return false
	}
	switch ai.Trigger.Event {
	case config.BeforeCreate, config.BeforeUpdate, config.BeforeDestroy:
		return true
	}
	return false
}

// Destroys reports whether the invocation's event is a destroy event.
func (ai *ActionInvocation) Destroys() bool {
	return ai.Trigger != nil && (ai.Trigger.Event == config.BeforeDestroy || ai.Trigger.Event == config.AfterDestroy)
}

// CompareActionInvocations orders invocations as plans list them: invoked
// actions by address, then the triggered ones by their resource, event,
// block and entry.
func CompareActionInvocations(a, b *ActionInvocation) int {
	if (a.Trigger == nil) != (b.Trigger == nil) {
		if a.Trigger == nil {
			return -1
		}
		return 1
	}
	if a.Trigger == nil {
		return cmp.Compare(a.Addr.String(), b.Addr.String())
	}
	ta, tb := a.Trigger, b.Trigger
	if c := ta.Resource.Compare(tb.Resource); c != 0 {
		return c
	}
	if c := cmp.Compare(ta.Event, tb.Event); c != 0 {
		return c
	}
	if c := cmp.Compare(ta.BlockIndex, tb.BlockIndex); c != 0 {
		return c
	}
	return cmp.Compare(ta.ActionIndex, tb.ActionIndex)
}

// ActionsFor returns the invocations of p that resource instance addr's
// change fires, before or after its operation, in the order they run.
func (p *Plan) ActionsFor(addr addrs.AbsResourceInstance, before bool) []*ActionInvocation {
	var out []*ActionInvocation
	for _, ai := range p.ActionInvocations {
		if ai.Trigger != nil && ai.Trigger.Resource == addr && ai.Before() == before {
			out = append(out, ai)
		}
	}
	return out
}

// ParseActionEvent returns the action_trigger event keyword s names
// ("before_create", …).
func ParseActionEvent(s string) (config.ActionEvent, bool) {
	for e := config.BeforeCreate; e <= config.AfterDestroy; e++ {
		if e.String() == s {
			return e, true
		}
	}
	return 0, false
}

// OnFailureKeyword returns an on_failure setting as the configuration
// writes it: "halt", "taint" or "continue".
func OnFailureKeyword(f config.ActionOnFailure) string {
	switch f {
	case config.OnFailureTaint:
		return "taint"
	case config.OnFailureContinue:
		return "continue"
	}
	return "halt"
}

// ParseOnFailure is the inverse of OnFailureKeyword.
func ParseOnFailure(s string) (config.ActionOnFailure, bool) {
	for _, f := range []config.ActionOnFailure{config.OnFailureHalt, config.OnFailureTaint, config.OnFailureContinue} {
		if OnFailureKeyword(f) == s {
			return f, true
		}
	}
	return 0, false
}

// EventName is an action_trigger event as Terraform's JSON plan and -json
// messages name it: "BeforeCreate", "AfterUpdate", ….
func EventName(e config.ActionEvent) string {
	var b strings.Builder
	for _, part := range strings.Split(e.String(), "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// OnFailureName is an on_failure setting as Terraform's JSON plan and
// -json messages name it: "ActionOnFailureHalt", ….
func OnFailureName(f config.ActionOnFailure) string {
	switch f {
	case config.OnFailureTaint:
		return "ActionOnFailureTaint"
	case config.OnFailureContinue:
		return "ActionOnFailureContinue"
	}
	return "ActionOnFailureHalt"
}
