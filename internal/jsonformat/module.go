package jsonformat

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rig-iac/rig/internal/config"
)

// StandaloneModule is a module described alone, as OpenTofu's show -json
// -module prints it: without the modules it calls, without schemas and so
// without expressions, but with each variable's type and whether it is
// required.
type StandaloneModule struct {
	ProviderConfigs map[string]ConfigProvider `json:"provider_config,omitempty"`
	RootModule      struct {
		Outputs     map[string]StandaloneOutput   `json:"outputs,omitempty"`
		Resources   []StandaloneResource          `json:"resources,omitempty"`
		ModuleCalls map[string]StandaloneCall     `json:"module_calls,omitempty"`
		Variables   map[string]StandaloneVariable `json:"variables,omitempty"`
	} `json:"root_module"`
}

// StandaloneOutput is an output block of a StandaloneModule.
type StandaloneOutput struct {
	Sensitive   bool     `json:"sensitive,omitempty"`
	Deprecated  string   `json:"deprecated,omitempty"`
	Description string   `json:"description,omitempty"`
	DependsOn   []string `json:"depends_on,omitempty"`
}

// StandaloneResource is a resource block of a StandaloneModule.
type StandaloneResource struct {
	Address           string   `json:"address,omitempty"`
	Mode              string   `json:"mode,omitempty"`
	Type              string   `json:"type,omitempty"`
	Name              string   `json:"name,omitempty"`
	ProviderConfigKey string   `json:"provider_config_key,omitempty"`
	DependsOn         []string `json:"depends_on,omitempty"`
}

// StandaloneCall is a module call of a StandaloneModule.
type StandaloneCall struct {
	Source            string   `json:"source,omitempty"`
	VersionConstraint string   `json:"version_constraint,omitempty"`
	DependsOn         []string `json:"depends_on,omitempty"`
}

// StandaloneVariable is a variable block of a StandaloneModule, with its
// type constraint and whether it is required.
type StandaloneVariable struct {
	Type        json.RawMessage `json:"type,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	Required    bool            `json:"required,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
	Deprecated  string          `json:"deprecated,omitempty"`
}

// NewStandaloneModule describes mod alone: what NewConfig says of it
// without schemas, less the expressions, plus its variables' types.
func NewStandaloneModule(mod *config.Module) StandaloneModule {
	summary := NewConfig(mod, nil)
	var out StandaloneModule
	out.ProviderConfigs = summary.ProviderConfigs
	root := summary.RootModule
	for name, o := range root.Outputs {
		if out.RootModule.Outputs == nil {
			out.RootModule.Outputs = map[string]StandaloneOutput{}
		}
		so := StandaloneOutput{Sensitive: o.Sensitive, Description: o.Description, DependsOn: o.DependsOn}
		if co := mod.Outputs[name]; co != nil {
			so.Deprecated = co.Deprecated
		}
		out.RootModule.Outputs[name] = so
	}
	for _, r := range root.Resources {
		out.RootModule.Resources = append(out.RootModule.Resources, StandaloneResource{Address: r.Address, Mode: r.Mode, Type: r.Type,
			Name: r.Name, ProviderConfigKey: r.ProviderConfigKey, DependsOn: r.DependsOn})
	}
	for name, c := range root.ModuleCalls {
		if out.RootModule.ModuleCalls == nil {
			out.RootModule.ModuleCalls = map[string]StandaloneCall{}
		}
		out.RootModule.ModuleCalls[name] = StandaloneCall{Source: c.Source, VersionConstraint: c.VersionConstraint, DependsOn: c.DependsOn}
	}
	for name, v := range mod.Variables {
		if out.RootModule.Variables == nil {
			out.RootModule.Variables = map[string]StandaloneVariable{}
		}
		sv := StandaloneVariable{Description: v.Description, Required: v.Required(), Sensitive: v.Sensitive, Deprecated: v.Deprecated}
		if v.Type != cty.NilType && v.Type != cty.DynamicPseudoType {
			sv.Type, _ = ctyjson.MarshalType(v.Type)
		}
		if v.Default != cty.NilVal {
			sv.Default, _ = ctyjson.Marshal(v.Default, v.Default.Type())
		}
		out.RootModule.Variables[name] = sv
	}
	return out
}
