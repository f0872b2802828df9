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

// PlanActionInvocation is one of a JSON plan's action_invocations
// (Terraform 1.14): the action, its configuration (known values, with
// which of them are sensitive or unknown) and what fires it.
type PlanActionInvocation struct {
	Address         string                   `json:"address,omitempty"`
	Type            string                   `json:"type,omitempty"`
	Name            string                   `json:"name,omitempty"`
	ConfigValues    json.RawMessage          `json:"config_values,omitempty"`
	ConfigSensitive json.RawMessage          `json:"config_sensitive,omitempty"`
	ConfigUnknown   json.RawMessage          `json:"config_unknown,omitempty"`
	ProviderName    string                   `json:"provider_name,omitempty"`
	Lifecycle       *PlanActionLifecycle     `json:"lifecycle_action_trigger,omitempty"`
	Invoke          *PlanActionInvokeTrigger `json:"invoke_action_trigger,omitempty"`
}

// PlanActionLifecycle is the action_trigger entry that fires an
// invocation.
type PlanActionLifecycle struct {
	TriggeringResourceAddress string `json:"triggering_resource_address,omitempty"`
	ActionTriggerEvent        string `json:"action_trigger_event,omitempty"`
	ActionTriggerBlockIndex   int    `json:"action_trigger_block_index"`
	ActionsListIndex          int    `json:"actions_list_index"`
	OnFailure                 string `json:"on_failure"`
}

// PlanActionInvokeTrigger marks an invocation -invoke asked for.
type PlanActionInvokeTrigger struct {
	CallingResourceAddress string `json:"calling_resource_address,omitempty"`
}
