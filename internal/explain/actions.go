package explain

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/plan"
)

// Action is an action an operation runs (an action_trigger entry fired
// by its change), explained: when it runs within the operation and why.
type Action struct {
	Invocation *plan.ActionInvocation
	// Before is set for a before_* event: the action runs once everything
	// the operation waits for is done, and before the operation starts.
	// Otherwise it runs once the operation's result is recorded, and
	// before anything that waits for the operation starts.
	Before bool
	// Trigger is where the action_trigger block is written; nil when
	// unknown.
	Trigger *hcl.Range
}

// actionsOf returns the actions operation op of change c runs, in the
// order they run.
func actionsOf(p *plan.Plan, op apply.Op, c *plan.ResourceInstanceChange, src *sources) []Action {
	var out []Action
	for _, before := range []bool{true, false} {
		for _, ai := range apply.TriggeredActions(p, op, c, before) {
			a := Action{Invocation: ai, Before: before}
			if r := src.resource(ai.Trigger.Resource.ContainingResource()); r != nil && r.Managed != nil && ai.Trigger.BlockIndex < len(r.Managed.ActionTriggers) {
				rng := r.Managed.ActionTriggers[ai.Trigger.BlockIndex].DeclRange
				a.Trigger = &rng
			}
			out = append(out, a)
		}
	}
	return out
}

// when says, in words, when an action runs within its operation.
func (a Action) when() string {
	if a.Before {
		return "runs after everything this operation waits for, and before the operation starts; if it fails, the operation does not run"
	}
	return "runs once the operation's result is recorded in state, and before anything that waits for this operation starts"
}

// label names the action with its event: "action.x.y (before_create)".
func (a Action) label() string {
	t := a.Invocation.Trigger
	s := fmt.Sprintf("%s (%s, on_failure = %s)", a.Invocation.Addr, t.Event, plan.OnFailureKeyword(t.OnFailure))
	if a.Trigger != nil {
		s += ", action_trigger at " + pos(*a.Trigger)
	}
	return s
}

func writeActions(b *strings.Builder, actions []Action) {
	if len(actions) == 0 {
		return
	}
	b.WriteString("    runs actions:\n")
	for _, a := range actions {
		fmt.Fprintf(b, "      %s\n        %s\n", a.label(), a.when())
	}
}

type actionJSON struct {
	Address   string     `json:"address"`
	Event     string     `json:"event"`
	When      string     `json:"when"`
	OnFailure string     `json:"on_failure"`
	Trigger   *rangeJSON `json:"action_trigger,omitempty"`
}

func actionsJSON(actions []Action) []actionJSON {
	var out []actionJSON
	for _, a := range actions {
		when := "after"
		if a.Before {
			when = "before"
		}
		t := a.Invocation.Trigger
		out = append(out, actionJSON{Address: a.Invocation.Addr.String(), Event: t.Event.String(), When: when,
			OnFailure: plan.OnFailureKeyword(t.OnFailure), Trigger: rangeOf(a.Trigger)})
	}
	return out
}
