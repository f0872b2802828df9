package jsonformat

import "encoding/json"

// State is the JSON state representation `tofu show -json` prints for a
// state (format_version "1.0").
type State struct {
	FormatVersion    string       `json:"format_version,omitempty"`
	TerraformVersion string       `json:"terraform_version,omitempty"`
	Values           *StateValues `json:"values,omitempty"`
}

// StateValues are a state's root outputs and objects.
type StateValues struct {
	Outputs    map[string]StateOutput `json:"outputs,omitempty"`
	RootModule StateModule            `json:"root_module"`
}

// StateOutput is a root output's value in StateValues.
type StateOutput struct {
	Sensitive bool            `json:"sensitive"`
	Value     json.RawMessage `json:"value,omitempty"`
	Type      json.RawMessage `json:"type,omitempty"`
}

// StateModule is a module instance's objects and its child modules.
type StateModule struct {
	Resources    []StateResource `json:"resources,omitempty"`
	Address      string          `json:"address,omitempty"`
	ChildModules []StateModule   `json:"child_modules,omitempty"`
}

// StateResource is one object of a StateModule (also a planned object in
// PlannedValues).
type StateResource struct {
	Address         string                     `json:"address,omitempty"`
	Mode            string                     `json:"mode,omitempty"`
	Type            string                     `json:"type,omitempty"`
	Name            string                     `json:"name,omitempty"`
	Index           json.RawMessage            `json:"index,omitempty"`
	ProviderName    string                     `json:"provider_name"`
	SchemaVersion   uint64                     `json:"schema_version"`
	AttributeValues map[string]json.RawMessage `json:"values,omitempty"`
	SensitiveValues json.RawMessage            `json:"sensitive_values,omitempty"`
	DependsOn       []string                   `json:"depends_on,omitempty"`
	Tainted         bool                       `json:"tainted,omitempty"`
	DeposedKey      string                     `json:"deposed_key,omitempty"`
}
