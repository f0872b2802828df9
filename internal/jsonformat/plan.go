package jsonformat

import "encoding/json"

// Plan is the JSON plan representation `tofu show -json PLANFILE` prints
// (format_version "1.2").
type Plan struct {
	FormatVersion    string                  `json:"format_version,omitempty"`
	TerraformVersion string                  `json:"terraform_version,omitempty"`
	Variables        map[string]PlanVariable `json:"variables,omitempty"`
	PlannedValues    PlannedValues           `json:"planned_values"`
	ResourceDrift    []ResourceChange        `json:"resource_drift,omitempty"`
	ResourceChanges  []ResourceChange        `json:"resource_changes,omitempty"`
	// ActionInvocations are the actions the plan runs (Terraform 1.14).
	ActionInvocations []PlanActionInvocation `json:"action_invocations,omitempty"`
	OutputChanges     map[string]Change      `json:"output_changes,omitempty"`
	PriorState        *State                 `json:"prior_state,omitempty"`
	Configuration     *Config                `json:"configuration,omitempty"`
	Relevant          []RelevantAttribute    `json:"relevant_attributes,omitempty"`
	Checks            []any                  `json:"checks,omitempty"`
	Timestamp         string                 `json:"timestamp,omitempty"`
	Errored           bool                   `json:"errored"`
	// RigRefresh says which recorded objects the plan read back: rig's
	// own field, absent when it read every one and listed none.
	RigRefresh *PlanRefresh `json:"rig_refresh,omitempty"`
}

// RelevantAttribute is one of the plan's relevant_attributes.
type RelevantAttribute struct {
	Resource  string          `json:"resource"`
	Attribute json.RawMessage `json:"attribute"`
}

// PlanVariable is a root variable's value in a Plan.
type PlanVariable struct {
	Value json.RawMessage `json:"value,omitempty"`
}

// PlannedValues are the root outputs and objects a Plan would leave.
type PlannedValues struct {
	Outputs    map[string]PlannedOutput `json:"outputs,omitempty"`
	RootModule StateModule              `json:"root_module"`
}

// PlannedOutput is a root output in PlannedValues: its value when known.
type PlannedOutput struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
}

// ResourceChange is one of a Plan's resource_changes (or resource_drift):
// an object, its change and why.
type ResourceChange struct {
	Address         string          `json:"address,omitempty"`
	PreviousAddress string          `json:"previous_address,omitempty"`
	ModuleAddress   string          `json:"module_address,omitempty"`
	Mode            string          `json:"mode,omitempty"`
	Type            string          `json:"type,omitempty"`
	Name            string          `json:"name,omitempty"`
	Index           json.RawMessage `json:"index,omitempty"`
	ProviderName    string          `json:"provider_name,omitempty"`
	Deposed         string          `json:"deposed,omitempty"`
	Change          Change          `json:"change"`
	ActionReason    string          `json:"action_reason,omitempty"`
	// RigReasons says why, beyond action_reason: rig's own field, which
	// tools that follow the documented format ignore.
	RigReasons []Reason `json:"rig_reasons,omitempty"`
}

// Change is a change's actions and values before and after, with what
// is unknown and what is sensitive.
type Change struct {
	Actions         []string        `json:"actions,omitempty"`
	Before          json.RawMessage `json:"before,omitempty"`
	After           json.RawMessage `json:"after,omitempty"`
	AfterUnknown    json.RawMessage `json:"after_unknown,omitempty"`
	BeforeSensitive json.RawMessage `json:"before_sensitive,omitempty"`
	AfterSensitive  json.RawMessage `json:"after_sensitive,omitempty"`
	ReplacePaths    json.RawMessage `json:"replace_paths,omitempty"`
	Importing       *Importing      `json:"importing,omitempty"`
	GeneratedConfig string          `json:"generated_config,omitempty"`
	// The resource identities before and after the change, where the
	// resource type has them (values unknown until apply are null).
	BeforeIdentity json.RawMessage `json:"before_identity,omitempty"`
	AfterIdentity  json.RawMessage `json:"after_identity,omitempty"`
}

// Importing says a Change imports the object with ID, or by Identity.
type Importing struct {
	ID string `json:"id,omitempty"`
	// Identity is the identity an import block named the object by.
	Identity json.RawMessage `json:"identity,omitempty"`
}

// Reason is one entry of a resource change's "rig_reasons" in the JSON
// plan (and of `rig explain -json`): why the change does what it does.
// Kind is plan.ReasonKind's name; Message the sentence rig prints; the
// other fields are set by kind.
type Reason struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Attributes are attribute paths as messages show them ("tags[\"a\"]").
	Attributes []string `json:"attributes,omitempty"`
	// Instance is the previous address (moved) or the instance a read waits for.
	Instance string `json:"instance,omitempty"`
	// Trigger is the replace_triggered_by entry that fired.
	Trigger *Trigger `json:"trigger,omitempty"`
	// ID is the import ID.
	ID string `json:"id,omitempty"`
	// Resource is the resource create_before_destroy is inherited from.
	Resource string `json:"resource,omitempty"`
	// Path is the dependency path from Resource to this resource.
	Path []string `json:"path,omitempty"`
}

// Trigger is a replace_triggered_by entry in Reason.
type Trigger struct {
	// Changed is the referenced instance (with the attribute the entry names).
	Changed string `json:"changed"`
	Range   *Range `json:"range,omitempty"`
}
