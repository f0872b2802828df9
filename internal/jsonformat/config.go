package jsonformat

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/provider"
)

// Config is the JSON configuration representation: a JSON plan's
// "configuration", and what `show -json -config` prints. NewConfig
// builds it; expressions are pre-encoded JSON ({"constant_value": …} or
// {"references": […]}).
type Config struct {
	ProviderConfigs map[string]ConfigProvider `json:"provider_config,omitempty"`
	RootModule      ConfigModule              `json:"root_module"`
}

// ConfigProvider describes one provider configuration, keyed in
// Config.ProviderConfigs by "NAME" or "NAME.ALIAS" (prefixed with
// "MODULE:" outside the root module).
type ConfigProvider struct {
	Name              string                     `json:"name,omitempty"`
	FullName          string                     `json:"full_name,omitempty"`
	Alias             string                     `json:"alias,omitempty"`
	VersionConstraint string                     `json:"version_constraint,omitempty"`
	ModuleAddress     string                     `json:"module_address,omitempty"`
	Expressions       map[string]json.RawMessage `json:"expressions,omitempty"`
}

// ConfigModule describes one module of the configuration.
type ConfigModule struct {
	Outputs     map[string]ConfigOutput     `json:"outputs,omitempty"`
	Resources   []ConfigResource            `json:"resources,omitempty"`
	ModuleCalls map[string]ConfigModuleCall `json:"module_calls,omitempty"`
	Variables   map[string]ConfigVariable   `json:"variables,omitempty"`
}

// ConfigResource describes one resource block.
type ConfigResource struct {
	Address           string                     `json:"address,omitempty"`
	Mode              string                     `json:"mode,omitempty"`
	Type              string                     `json:"type,omitempty"`
	Name              string                     `json:"name,omitempty"`
	ProviderConfigKey string                     `json:"provider_config_key,omitempty"`
	Expressions       map[string]json.RawMessage `json:"expressions,omitempty"`
	SchemaVersion     uint64                     `json:"schema_version"`
	CountExpression   json.RawMessage            `json:"count_expression,omitempty"`
	ForEachExpression json.RawMessage            `json:"for_each_expression,omitempty"`
	DependsOn         []string                   `json:"depends_on,omitempty"`
}

// ConfigOutput describes one output block.
type ConfigOutput struct {
	Sensitive   bool            `json:"sensitive,omitempty"`
	Ephemeral   bool            `json:"ephemeral,omitempty"`
	Expression  json.RawMessage `json:"expression,omitempty"`
	DependsOn   []string        `json:"depends_on,omitempty"`
	Description string          `json:"description,omitempty"`
}

// ConfigVariable describes one variable block, with the fields OpenTofu
// 1.12 writes: its type constraint (none for "any"), and whether a value
// must be given.
type ConfigVariable struct {
	Type        json.RawMessage `json:"type,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	Required    bool            `json:"required,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
	Ephemeral   bool            `json:"ephemeral,omitempty"`
	Deprecated  string          `json:"deprecated,omitempty"`
}

// ConfigModuleCall describes one module block and the module it calls.
type ConfigModuleCall struct {
	Source            string                     `json:"source,omitempty"`
	Expressions       map[string]json.RawMessage `json:"expressions,omitempty"`
	CountExpression   json.RawMessage            `json:"count_expression,omitempty"`
	ForEachExpression json.RawMessage            `json:"for_each_expression,omitempty"`
	Module            ConfigModule               `json:"module"`
	VersionConstraint string                     `json:"version_constraint,omitempty"`
	DependsOn         []string                   `json:"depends_on,omitempty"`
}

// NewConfig describes the configuration tree below root as the JSON
// plan's "configuration" does: the provider configurations, and each
// module's resources, outputs, variables and calls with their expressions
// unevaluated. schemas supply the argument names of resource and provider
// bodies and resource schema versions; a resource or provider whose schema
// is missing is described without expressions.
func NewConfig(root *config.Module, schemas map[addrs.Provider]*provider.Schemas) *Config {
	pcs := providerConfigEntries{}
	pcs.add(root, schemas)
	out := &Config{RootModule: moduleSummary(root, schemas, pcs)}
	for key, e := range pcs {
		if e.source != "" {
			continue
		}
		if out.ProviderConfigs == nil {
			out.ProviderConfigs = map[string]ConfigProvider{}
		}
		out.ProviderConfigs[key] = e.summary
	}
	return out
}

// providerConfigEntry is one provider_config entry while the map is built.
// source is, for a configuration that stands for one declared in an
// ancestor module (passed by a call, or inherited implicitly), the key of
// that configuration; such entries are left out of the result and
// resources using them name their source instead.
type providerConfigEntry struct {
	summary ConfigProvider
	source  string
}

// providerConfigEntries are the entries by key: "NAME" or "NAME.ALIAS" in
// the root module, "module.a.module.b:NAME" below it.
type providerConfigEntries map[string]*providerConfigEntry

func providerConfigKey(module addrs.Module, name string) string {
	if module.IsRoot() {
		return name
	}
	return module.String() + ":" + name
}

// add records the provider configurations m declares, requires or uses,
// then those of every module it calls, parents before children, as
// Terraform lists them: provider blocks; required_providers entries and
// their configuration_aliases; default configurations of providers the
// module only uses; and, for each call, the configurations its providers
// argument passes.
func (pcs providerConfigEntries) add(m *config.Module, schemas map[addrs.Provider]*provider.Schemas) {
	reqs := shallowRequirements(m)
	path := m.Path
	for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
		pc := m.ProviderConfigs[key]
		fqn := m.ProviderFor(pc.Name)
		var blk *provider.Block
		if ps := schemas[fqn]; ps != nil {
			blk = ps.Provider.Block
		}
		pcs[providerConfigKey(path, key)] = &providerConfigEntry{summary: ConfigProvider{
			Name: pc.Name, FullName: fqn.String(), Alias: pc.Alias, ModuleAddress: path.String(),
			VersionConstraint: reqs[fqn].String(), Expressions: bodyExpressions(pc.Config, blk),
		}}
	}
	parentKey := func(name string) string {
		if m.Parent == nil {
			return ""
		}
		return providerConfigKey(m.Parent.Path, name)
	}
	for _, name := range slices.Sorted(maps.Keys(m.Terraform.RequiredProviders)) {
		rp := m.Terraform.RequiredProviders[name]
		for _, alias := range rp.ConfigurationAliases {
			key := providerConfigKey(path, alias)
			if _, ok := pcs[key]; !ok {
				pcs[key] = &providerConfigEntry{summary: ConfigProvider{
					Name: rp.Name, FullName: rp.Provider.String(), ModuleAddress: path.String(), VersionConstraint: reqs[rp.Provider].String(),
				}}
			}
		}
		key := providerConfigKey(path, name)
		if _, ok := pcs[key]; ok {
			continue
		}
		fqn := rp.Provider.String()
		pcs[key] = &providerConfigEntry{
			summary: ConfigProvider{Name: name, FullName: fqn, ModuleAddress: path.String(), VersionConstraint: reqs[rp.Provider].String()},
			source:  pcs.sourceOf(parentKey(name), fqn),
		}
	}
	for _, fqn := range sortedProviders(reqs) {
		key := providerConfigKey(path, fqn.Type)
		if _, ok := pcs[key]; ok {
			continue
		}
		pcs[key] = &providerConfigEntry{
			summary: ConfigProvider{Name: fqn.Type, FullName: fqn.String(), ModuleAddress: path.String()},
			source:  pcs.sourceOf(parentKey(fqn.Type), fqn.String()),
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		child := m.Children[name]
		if child == nil {
			continue
		}
		for _, pp := range m.ModuleCalls[name].Providers {
			inChild := pp.InChild.String()
			fqn := child.ProviderFor(pp.InChild.Name).String()
			pcs[providerConfigKey(child.Path, inChild)] = &providerConfigEntry{
				summary: ConfigProvider{Name: inChild, FullName: fqn, ModuleAddress: child.Path.String()},
				source:  pcs.sourceOf(providerConfigKey(path, pp.InParent.String()), fqn),
			}
		}
		pcs.add(child, schemas)
	}
}

// sourceOf follows the entries from key through their sources while they
// are of the same provider, and returns the last one found: the
// configuration an entry at key stands for. It returns "" when there is
// no entry at key for that provider.
func (pcs providerConfigEntries) sourceOf(key, fullName string) string {
	found := ""
	for key != "" {
		e, ok := pcs[key]
		if !ok || e.summary.FullName != fullName {
			break
		}
		found, key = key, e.source
	}
	return found
}

// resourceKey returns the provider_config key of the configuration a
// resource of module m uses under the local name and alias given.
func (pcs providerConfigEntries) resourceKey(m *config.Module, name, alias string) string {
	local := name
	if alias != "" {
		local += "." + alias
	}
	key := providerConfigKey(m.Path, local)
	if e, ok := pcs[key]; ok && e.source != "" {
		if _, ok := pcs[e.source]; ok {
			return e.source
		}
	}
	return key
}

// shallowRequirements returns the providers module m itself requires
// (required_providers, provider blocks, resource types), each with the
// version constraints m states for it.
func shallowRequirements(m *config.Module) map[addrs.Provider]getproviders.Constraints {
	reqs := map[addrs.Provider]getproviders.Constraints{}
	add := func(p addrs.Provider, version string) {
		cs := reqs[p]
		if version != "" {
			if more, err := getproviders.ParseConstraints(version); err == nil {
				cs = cs.Merge(more)
			}
		}
		reqs[p] = cs
	}
	for _, name := range slices.Sorted(maps.Keys(m.Terraform.RequiredProviders)) {
		rp := m.Terraform.RequiredProviders[name]
		add(rp.Provider, rp.Version)
	}
	for _, r := range m.Resources() {
		name, _ := m.ProviderLocalName(r)
		if fqn := m.ProviderFor(name); !hasProvider(reqs, fqn) {
			add(fqn, "")
		}
	}
	for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
		pc := m.ProviderConfigs[key]
		add(m.ProviderFor(pc.Name), pc.Version)
	}
	return reqs
}

func hasProvider(reqs map[addrs.Provider]getproviders.Constraints, p addrs.Provider) bool {
	_, ok := reqs[p]
	return ok
}

func sortedProviders(reqs map[addrs.Provider]getproviders.Constraints) []addrs.Provider {
	out := make([]addrs.Provider, 0, len(reqs))
	for p := range reqs {
		out = append(out, p)
	}
	slices.SortFunc(out, addrs.Provider.Compare)
	return out
}

// moduleSummary describes module m and, through its calls, the modules
// below it.
func moduleSummary(m *config.Module, schemas map[addrs.Provider]*provider.Schemas, pcs providerConfigEntries) ConfigModule {
	var out ConfigModule
	for _, r := range m.Resources() {
		out.Resources = append(out.Resources, resourceSummary(m, r, schemas, pcs))
	}
	slices.SortFunc(out.Resources, func(a, b ConfigResource) int { return strings.Compare(a.Address, b.Address) })
	if len(m.Outputs) > 0 {
		out.Outputs = map[string]ConfigOutput{}
	}
	for name, o := range m.Outputs {
		out.Outputs[name] = ConfigOutput{
			Sensitive: o.Sensitive, Ephemeral: o.Ephemeral, Expression: expressionJSON(o.Expr),
			DependsOn: dependsOn(o.DependsOn), Description: o.Description,
		}
	}
	if len(m.Variables) > 0 {
		out.Variables = map[string]ConfigVariable{}
	}
	for name, v := range m.Variables {
		vs := ConfigVariable{Description: v.Description, Required: v.Required(), Sensitive: v.Sensitive, Ephemeral: v.Ephemeral, Deprecated: v.Deprecated}
		if v.Type != cty.NilType && v.Type != cty.DynamicPseudoType {
			vs.Type, _ = ctyjson.MarshalType(v.Type)
		}
		if v.Default != cty.NilVal {
			vs.Default = constantJSON(v.Default)
		}
		out.Variables[name] = vs
	}
	if len(m.ModuleCalls) > 0 {
		out.ModuleCalls = map[string]ConfigModuleCall{}
	}
	for name, call := range m.ModuleCalls {
		out.ModuleCalls[name] = moduleCallSummary(call, m.Children[name], schemas, pcs)
	}
	return out
}

func resourceSummary(m *config.Module, r *config.Resource, schemas map[addrs.Provider]*provider.Schemas, pcs providerConfigEntries) ConfigResource {
	name, alias := m.ProviderLocalName(r)
	rs := ConfigResource{
		Address: r.Addr.String(), Mode: r.Addr.Mode.String(), Type: r.Addr.Type, Name: r.Addr.Name,
		ProviderConfigKey: pcs.resourceKey(m, name, alias), DependsOn: dependsOn(r.DependsOn),
	}
	rs.CountExpression, rs.ForEachExpression = repetitionJSON(r.Count, r.ForEach)
	if sch, ok := schemas[m.ProviderFor(name)].ResourceTypeSchema(r.Addr.Mode, r.Addr.Type); ok {
		rs.SchemaVersion = uint64(sch.Version)
		rs.Expressions = bodyExpressions(r.Config, sch.Block)
	}
	return rs
}

func moduleCallSummary(call *config.ModuleCall, child *config.Module, schemas map[addrs.Provider]*provider.Schemas, pcs providerConfigEntries) ConfigModuleCall {
	cs := ConfigModuleCall{Source: call.Source, VersionConstraint: call.Version, DependsOn: dependsOn(call.DependsOn)}
	cs.CountExpression, cs.ForEachExpression = repetitionJSON(call.Count, call.ForEach)
	if child == nil {
		return cs
	}
	// The call's arguments are the child's input variables.
	inputs := &provider.Block{Attributes: map[string]*provider.Attribute{}}
	for name, v := range child.Variables {
		inputs.Attributes[name] = &provider.Attribute{Type: cty.DynamicPseudoType, Required: v.Required(), Optional: !v.Required()}
	}
	cs.Expressions = bodyExpressions(call.Config, inputs)
	cs.Module = moduleSummary(child, schemas, pcs)
	return cs
}

// AddConfigSchemas adds to schemas those of every provider the
// configuration tree below root uses that it lacks, as get returns them
// (false when they cannot be had: the provider is left out), for NewConfig.
func AddConfigSchemas(schemas map[addrs.Provider]*provider.Schemas, root *config.Module, get func(addrs.Provider) (*provider.Schemas, bool)) {
	for _, m := range root.AllModules() {
		var fqns []addrs.Provider
		for _, r := range m.Resources() {
			name, _ := m.ProviderLocalName(r)
			fqns = append(fqns, m.ProviderFor(name))
		}
		for _, pc := range m.ProviderConfigs {
			fqns = append(fqns, m.ProviderFor(pc.Name))
		}
		for _, fqn := range fqns {
			if _, ok := schemas[fqn]; ok {
				continue
			}
			if s, ok := get(fqn); ok {
				schemas[fqn] = s
			}
		}
	}
}
