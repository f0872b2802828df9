package jsonformat

import "encoding/json"

// ActionAddr is an action instance's address in the -json messages.
type ActionAddr struct {
	Addr            string          `json:"addr"`
	Module          string          `json:"module"`
	Action          string          `json:"action"`
	ImpliedProvider string          `json:"implied_provider"`
	ActionType      string          `json:"action_type"`
	ActionName      string          `json:"action_name"`
	ActionKey       json.RawMessage `json:"action_key"`
}

// ActionInvocation is the invocation of a planned_action_invocation
// message: the action, and the trigger that fires it or, for an action
// -invoke names, an empty action_trigger object.
type ActionInvocation struct {
	Action           ActionAddr                 `json:"action_addr"`
	LifecycleTrigger *ActionInvocationLifecycle `json:"lifecycle_trigger,omitempty"`
	InvokeTrigger    *struct{}                  `json:"action_trigger,omitempty"`
}

// ActionInvocationLifecycle is the action_trigger entry that fires a
// planned invocation.
type ActionInvocationLifecycle struct {
	TriggeringResource      ResourceAddr `json:"triggering_resource"`
	TriggeringEvent         string       `json:"triggering_event"`
	ActionTriggerBlockIndex int          `json:"action_trigger_block_index"`
	ActionsListIndex        int          `json:"actions_list_index"`
	OnFailure               string       `json:"on_failure"`
}

// ActionHook is the hook of the action_start, action_progress,
// action_complete and action_errored messages; Message only in
// action_progress, Error only in action_errored.
type ActionHook struct {
	Action    ActionAddr           `json:"action"`
	Message   *string              `json:"message,omitempty"`
	Error     *string              `json:"error,omitempty"`
	Lifecycle *ActionHookLifecycle `json:"lifecycle,omitempty"`
	Invoke    *struct{}            `json:"invoke,omitempty"`
}

// ActionHookLifecycle is the trigger of a running action.
type ActionHookLifecycle struct {
	Resource     ResourceAddr `json:"resource"`
	TriggerIndex int          `json:"trigger_index"`
	ActionsIndex int          `json:"actions_index"`
	TriggerEvent string       `json:"trigger_event"`
	OnFailure    string       `json:"on_failure"`
}
