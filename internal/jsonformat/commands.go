package jsonformat

import (
	"encoding/json"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rig-iac/rig/internal/state"
)

// The documents of the commands that print one small JSON object.

// Version is what version -json prints: tofu version -json's fields, with
// the Terraform version rig is compatible with as terraform_version, and
// rig's own version added.
type Version struct {
	TerraformVersion   string            `json:"terraform_version"`
	Platform           string            `json:"platform"`
	ProviderSelections map[string]string `json:"provider_selections"`
	RigVersion         string            `json:"rig_version"`
}

// InstalledModules is what modules -json prints, as Terraform 1.10+ prints
// it: every module call of the configuration.
type InstalledModules struct {
	FormatVersion string            `json:"format_version"`
	Modules       []InstalledModule `json:"modules"`
}

// InstalledModule is one module call of InstalledModules: the call's name,
// its source address and the version installed ("" for a source without
// versions).
type InstalledModule struct {
	Key     string `json:"key"`
	Source  string `json:"source"`
	Version string `json:"version"`
}

// Output is a root output as output -json prints every output.
type Output struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type"`
	Value     json.RawMessage `json:"value"`
}

// MarshalOutputs is what output -json prints: the value of the output
// named name, or with name "" every output with its sensitivity, type and
// value. ok is false when the named output is missing or cannot be
// encoded.
func MarshalOutputs(outputs map[string]state.OutputValue, name string) ([]byte, bool) {
	if name != "" {
		o, ok := outputs[name]
		if !ok {
			return nil, false
		}
		b, err := ctyjson.Marshal(o.Value, o.Value.Type())
		return b, err == nil
	}
	all := map[string]Output{}
	for name, o := range outputs {
		ty, _ := ctyjson.MarshalType(o.Value.Type())
		val, _ := ctyjson.Marshal(o.Value, o.Value.Type())
		all[name] = Output{Sensitive: o.Sensitive, Type: ty, Value: val}
	}
	b, _ := json.MarshalIndent(all, "", "  ")
	return b, true
}
