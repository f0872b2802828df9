package config

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// Module is the configuration of one directory. A Module returned with error
// diagnostics is partial but safe to inspect: every map is non-nil and
// Terraform is never nil.
//
// The Module and everything it points to is owned by the caller and must be
// treated as read-only once loading returns; it may be read concurrently.
type Module struct {
	// SourceDir is the directory the files came from ("" for LoadFiles).
	SourceDir string
	// Sources holds each file's contents by the filename used in source
	// ranges, for diagnostic snippets.
	Sources map[string][]byte

	// Terraform merges every "terraform" block of the module.
	Terraform *Terraform

	Variables map[string]*Variable
	Locals    map[string]*Local
	Outputs   map[string]*Output

	ManagedResources map[addrs.Resource]*Resource
	DataResources    map[addrs.Resource]*Resource
	// EphemeralResources are the `ephemeral` blocks.
	EphemeralResources map[addrs.Resource]*Resource

	// ProviderConfigs is keyed by "name" or "name.alias".
	ProviderConfigs map[string]*Provider

	// ModuleCalls are the module blocks, by call name.
	ModuleCalls map[string]*ModuleCall

	// Path is the module's static path in the configuration tree (the root
	// is addrs.RootModuleStatic); Parent is nil for the root.
	Path   addrs.Module
	Parent *Module
	// Children holds the module each call loads, by call name; filled by
	// LoadTree (LoadDir and LoadFiles leave it empty).
	Children map[string]*Module

	// Moved are the moved blocks, in file order.
	Moved []*Moved
	// Removed are the removed blocks, in file order.
	Removed []*Removed
	// Imports are the import blocks, in file order.
	Imports []*Import
	// Checks are the check blocks, in file order.
	Checks []*Check
	// Actions are the action blocks (Terraform 1.14), by address.
	Actions map[addrs.Action]*Action
	// ListResources are the list blocks of the root module's query files
	// (Terraform 1.14), by address (mode addrs.List); empty unless the
	// tree was loaded with TreeOptions.QueryFiles.
	ListResources map[addrs.Resource]*List

	// providerHost is LoadTree's TreeOptions.ProviderHost; nil keeps
	// addrs.DefaultProviderRegistryHost.
	providerHost func(addrs.Provider) addrs.Provider
	// static evaluates this module's expressions statically: LoadTree's
	// TreeOptions.Static; nil for LoadDir and LoadFiles.
	static StaticEvaluator
}

// Terraform is the merged content of the module's "terraform" blocks.
type Terraform struct {
	// RequiredVersion holds each required_version argument, each a literal
	// string with valid constraint syntax (see CheckCoreVersion). An
	// override file that sets any replaces them all.
	RequiredVersion []*VersionConstraint
	// CompatibleWith holds the opentofu constraint of each language
	// block's compatible_with block (OpenTofu 1.12), checked against the
	// OpenTofu language version rig implements (see CheckCoreVersion).
	CompatibleWith []*VersionConstraint
	// RequiredProviders is keyed by local name; never nil.
	RequiredProviders map[string]*RequiredProvider
	// RequiredProvidersDeclRange is the required_providers block's header;
	// nil when there is none.
	RequiredProvidersDeclRange *hcl.Range
	// Backend is the "backend" block, nil when absent.
	Backend *Backend
	// Cloud is the "cloud" block, nil when absent (unsupported by rig).
	Cloud *RawBlock
	// Encryption is the "encryption" block, nil when absent (unsupported by rig).
	Encryption *RawBlock
	// DeclRanges are the headers of every terraform block, in file order.
	DeclRanges []hcl.Range
	// ProviderMetas are the provider_meta blocks, by the local provider
	// name of their label; never nil.
	ProviderMetas map[string]*ProviderMeta
}

// ProviderMeta is a provider_meta block of a terraform block: metadata the
// module sends to a provider with each operation on its resources,
// decoded against the provider's provider_meta schema.
type ProviderMeta struct {
	// Provider is the local provider name of the label.
	Provider      string
	ProviderRange hcl.Range
	Config        hcl.Body
	DeclRange     hcl.Range
}

// RequiredProvider is one entry of a required_providers block.
type RequiredProvider struct {
	Name string
	// Source is the source address as written; "" when implied by Name.
	Source string
	// Provider is the fully-qualified provider: the parsed Source, or the
	// provider implied by Name.
	Provider addrs.Provider
	// Version is the version constraint string; "" when absent.
	Version string
	// ConfigurationAliases are the "name.alias" entries of configuration_aliases.
	ConfigurationAliases []string
	DeclRange            hcl.Range
}

// NamesHost reports whether the entry's source address names a registry
// host; without one the working directory decides the host (see
// TreeOptions.ProviderHost).
func (rp *RequiredProvider) NamesHost() bool { return addrs.SourceNamesHost(rp.Source) }

// Backend is a `backend "TYPE" { ... }` block inside a terraform block. Its
// body is decoded by the backend itself.
type Backend struct {
	Type      string
	Config    hcl.Body
	TypeRange hcl.Range
	DeclRange hcl.Range

	// module is the module that declares the block, whose static
	// evaluator computes its settings (StaticValue).
	module *Module
}

// StaticValue evaluates a setting of the backend block statically: it may
// refer to variables and local values (OpenTofu 1.8). A block not loaded
// from files takes constants only.
func (b *Backend) StaticValue(expr hcl.Expression) (cty.Value, diag.Diagnostics) {
	return staticValueIn(b.module, expr, "backend."+b.Type)
}

// RawBlock is a block kept as written, for constructs rig parses but does not
// support yet.
type RawBlock struct {
	Type      string
	Labels    []string
	Body      hcl.Body
	DeclRange hcl.Range

	// module is the module that declares the block (set for the
	// encryption block), whose static evaluator computes its settings.
	module *Module
}

// StaticValue evaluates an argument of the block statically, for what
// (as diagnostics name it, "encryption.key_provider.pbkdf2.main"): it may
// refer to variables and local values, as in OpenTofu's encryption block.
// A sensitive value is accepted. A block not loaded from files takes
// constants only.
func (b *RawBlock) StaticValue(expr hcl.Expression, what string) (cty.Value, diag.Diagnostics) {
	return staticValueIn(b.module, expr, what)
}

// Variable is a "variable" block.
type Variable struct {
	Name        string
	Description string
	// Type is the type constraint, including any optional() object
	// attributes, suitable for convert.Convert after TypeDefaults.Apply;
	// cty.DynamicPseudoType when no type is given.
	Type cty.Type
	// ConcreteType is Type without optional attribute markers: the type of
	// the variable's final value (use it for unknown values).
	ConcreteType cty.Type
	// TypeGiven says the block has a type argument: a value from the
	// command line or the environment for a variable without one is a
	// string, as in OpenTofu and Terraform, even if it looks like a list.
	TypeGiven bool
	// TypeDefaults holds the defaults of optional() attributes; nil if none.
	TypeDefaults *typeexpr.Defaults
	// Default is the default value converted to Type; cty.NilVal when the
	// variable has no default (and so is required).
	Default   cty.Value
	Sensitive bool
	// Ephemeral allows ephemeral values; the value is never recorded.
	Ephemeral bool
	Nullable  bool // true unless nullable = false
	// Const is const = true (OpenTofu 1.12, Terraform 1.15): the value
	// must be known statically, and is checked so when the tree loads.
	// ConstSet says const was written: const = false keeps the variable
	// out of static evaluation.
	Const, ConstSet bool
	Deprecated      string
	Validations     []*CheckRule
	DeclRange       hcl.Range
}

// Required reports whether a value must be given for v.
func (v *Variable) Required() bool { return v.Default == cty.NilVal }

// Local is one attribute of a "locals" block.
type Local struct {
	Name      string
	Expr      hcl.Expression
	DeclRange hcl.Range
}

// Output is an "output" block.
type Output struct {
	Name        string
	Description string
	Expr        hcl.Expression // nil only when "value" is missing (an error)
	Sensitive   bool
	// Ephemeral allows an ephemeral value, which is never recorded; only
	// child modules' outputs may be ephemeral.
	Ephemeral  bool
	Deprecated string
	// Type is the output's type constraint (Terraform 1.15's type
	// argument), cty.DynamicPseudoType when none is given; the value is
	// converted to it, with TypeDefaults (optional attributes' defaults,
	// nil when none) applied first.
	Type          cty.Type
	TypeDefaults  *typeexpr.Defaults
	DependsOn     []hcl.Traversal
	Preconditions []*CheckRule
	DeclRange     hcl.Range
}

// CheckRule is a validation, precondition or postcondition block.
type CheckRule struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	DeclRange    hcl.Range
}

// Provider is a "provider" block: one configuration of a provider.
type Provider struct {
	Name      string
	NameRange hcl.Range
	Alias     string
	// AliasRange is where the alias is set; nil when there is no alias.
	AliasRange *hcl.Range
	// Version is the deprecated in-block version constraint; "" when absent.
	Version string
	// ForEach is the provider-level for_each (OpenTofu 1.9+), nil when
	// absent: one instance of the configuration per element, each
	// configured with its each.key and each.value. Only a configuration
	// with an alias may have it; it may refer to variables and local
	// values only, evaluated before anything else.
	ForEach hcl.Expression
	// Config is the body minus meta-arguments, decoded against the
	// provider's schema later.
	Config    hcl.Body
	DeclRange hcl.Range
}

// Key returns the provider's key in Module.ProviderConfigs: "name" or "name.alias".
func (p *Provider) Key() string { return providerKey(p.Name, p.Alias) }

func providerKey(name, alias string) string {
	if alias == "" {
		return name
	}
	return name + "." + alias
}

// ModuleCall is a "module" block.
type ModuleCall struct {
	Name        string
	Source      string
	SourceRange hcl.Range
	Version     string
	// VersionRange is where version is set; nil without one.
	VersionRange *hcl.Range
	// Config holds the arguments: the child module's input variables.
	Config  hcl.Body
	Count   hcl.Expression
	ForEach hcl.Expression
	// Enabled is lifecycle.enabled (OpenTofu 1.11), nil when absent: zero
	// or one instance of the module, without a key.
	Enabled   hcl.Expression
	DependsOn []hcl.Traversal
	// IgnoreNestedDeprecations is Terraform 1.15's ignore_nested_deprecations:
	// no deprecation warnings from within the called module's tree.
	IgnoreNestedDeprecations bool
	// Providers is the providers argument, in the order written: the
	// child's provider configuration names mapped to the caller's.
	Providers []PassedProvider
	DeclRange hcl.Range

	// static holds the source and version expressions that refer to
	// variables or locals (OpenTofu 1.8, Terraform 1.15): Source and
	// Version are set from them when the tree loads (resolveCall); nil
	// when both are constants.
	static *callStatic
}

// PassedProvider is one entry of a module call's providers argument,
// `CHILD = PARENT`, each "name" or "name.alias".
type PassedProvider struct {
	InChild  ProviderConfigRef
	InParent ProviderConfigRef
	Range    hcl.Range
}

// QuietDeprecations reports whether m, or a module it is inside, is called
// with ignore_nested_deprecations = true: deprecations used within it are
// not warned about.
func (m *Module) QuietDeprecations() bool {
	for mod := m; mod != nil && mod.Parent != nil; mod = mod.Parent {
		if call := mod.call(); call != nil && call.IgnoreNestedDeprecations {
			return true
		}
	}
	return false
}

// ProviderLocalName returns the local provider name and alias that r uses:
// its explicit `provider = NAME.ALIAS` reference, or else the prefix of its
// type ("terraform" for terraform_data).
func (m *Module) ProviderLocalName(r *Resource) (name string, alias string) {
	if r.ProviderConfigRef != nil {
		return r.ProviderConfigRef.Name, r.ProviderConfigRef.Alias
	}
	return r.Addr.ImpliedProviderType(), ""
}

// ProviderFor returns the provider that a local name stands for: the source
// declared in required_providers, else the built-in provider for
// "terraform", else hashicorp/NAME under the registry host the working
// directory uses (registry.terraform.io unless LoadTree was told otherwise).
func (m *Module) ProviderFor(localName string) addrs.Provider {
	if m.Terraform != nil {
		if rp, ok := m.Terraform.RequiredProviders[localName]; ok && !rp.Provider.IsZero() {
			return rp.Provider
		}
	}
	if localName == "terraform" {
		return addrs.NewBuiltInProvider("terraform")
	}
	if m.providerHost != nil {
		return m.providerHost(addrs.NewDefaultProvider(localName))
	}
	return addrs.NewDefaultProvider(localName)
}

// ResourceByAddr returns the managed or data resource with the given
// address, or nil.
func (m *Module) ResourceByAddr(addr addrs.Resource) *Resource {
	switch addr.Mode {
	case addrs.Managed:
		return m.ManagedResources[addr]
	case addrs.Data:
		return m.DataResources[addr]
	case addrs.Ephemeral:
		return m.EphemeralResources[addr]
	}
	return nil
}

// Resources returns every managed, data and ephemeral resource sorted by
// address. The slice is new; the resources are the module's own.
func (m *Module) Resources() []*Resource {
	out := make([]*Resource, 0, len(m.ManagedResources)+len(m.DataResources)+len(m.EphemeralResources))
	for _, r := range m.ManagedResources {
		out = append(out, r)
	}
	for _, r := range m.DataResources {
		out = append(out, r)
	}
	for _, r := range m.EphemeralResources {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr.Less(out[j].Addr) })
	return out
}

func newModule() *Module {
	return &Module{
		Sources:            map[string][]byte{},
		Terraform:          &Terraform{RequiredProviders: map[string]*RequiredProvider{}, ProviderMetas: map[string]*ProviderMeta{}},
		Variables:          map[string]*Variable{},
		Locals:             map[string]*Local{},
		Outputs:            map[string]*Output{},
		ManagedResources:   map[addrs.Resource]*Resource{},
		DataResources:      map[addrs.Resource]*Resource{},
		EphemeralResources: map[addrs.Resource]*Resource{},
		ProviderConfigs:    map[string]*Provider{},
		ModuleCalls:        map[string]*ModuleCall{},
		Children:           map[string]*Module{},
		Actions:            map[addrs.Action]*Action{},
		ListResources:      map[addrs.Resource]*List{},
	}
}
