package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
)

// TestFile is one test file of a module (*.tftest.hcl, *.tftest.json and
// OpenTofu's *.tofutest.hcl and *.tofutest.json): run blocks executed in
// order against the module, with the variables, providers, mocks and
// overrides they share. Like Module, it is read-only once loaded.
type TestFile struct {
	// Name is the file's path relative to the module directory,
	// slash-separated ("tests/main.tftest.hcl"): how reports name it.
	Name string
	// Path is the file's path as read, the filename of its source ranges.
	Path string
	// Source is the file's content, for diagnostic snippets.
	Source []byte

	// Variables are the file-level variables block's values, by name;
	// never nil.
	Variables map[string]hcl.Expression
	// VariableDecls are Terraform's variable blocks in a test file: values
	// the file expects from outside (-var, .tfvars files), by name; never nil.
	VariableDecls map[string]*Variable
	// Providers are the provider blocks, by "name" or "name.alias"; never nil.
	Providers map[string]*Provider
	// Mocks are the mock_provider blocks, by "name" or "name.alias"; never nil.
	Mocks map[string]*MockProvider
	// Overrides are the file-level override_resource, override_data and
	// override_module blocks, in file order.
	Overrides []*Override
	// Runs are the run blocks in file order; Runs[i].Index is i.
	Runs []*TestRun

	// Parallel and SkipCleanup are the defaults the test block sets for
	// every run block (Terraform 1.12).
	Parallel    bool
	SkipCleanup bool
}

// TestCommand is what a run block runs: an apply (the default) or a plan.
type TestCommand uint8

const (
	// ApplyCommand plans and applies, then checks the assertions against the new state.
	ApplyCommand TestCommand = iota
	// PlanCommand plans, then checks the assertions against the planned values.
	PlanCommand
)

// String returns the keyword of the command, "apply" or "plan".
func (c TestCommand) String() string {
	if c == PlanCommand {
		return "plan"
	}
	return "apply"
}

// TestRun is a run block.
type TestRun struct {
	Name string
	// Index is the block's position among its file's run blocks.
	Index   int
	Command TestCommand
	// RefreshOnly is plan_options' mode = refresh-only.
	RefreshOnly bool
	// Refresh is plan_options' refresh (true unless set to false).
	Refresh bool
	// Replace and Target are plan_options' replace and target addresses.
	Replace, Target []hcl.Traversal
	// Variables are the run's variables block values, by name; never nil.
	Variables map[string]hcl.Expression
	// Providers is the providers argument: the module's provider
	// configuration names mapped to the test file's; nil when absent.
	Providers []PassedProvider
	// ProvidersSet is true when the providers argument is given (even empty).
	ProvidersSet bool
	// Asserts are the assert blocks, in order.
	Asserts []*CheckRule
	// ExpectFailures are the checkable objects expected to fail.
	ExpectFailures []hcl.Traversal
	// Module is the module block: another module to run instead of the
	// module under test; nil when absent.
	Module *TestModule
	// StateKey names the state the run works on: the state_key argument,
	// else the module block's source, else "" (the module under test's).
	StateKey string
	// Parallel says the run may run beside other parallel runs with
	// other state keys that it does not refer to.
	Parallel bool
	// SkipCleanup keeps what the run's state key holds at the end of the
	// file, when it is the last run of that state key to set it.
	SkipCleanup bool
	// Overrides are the run's override blocks, in order.
	Overrides []*Override

	NameRange hcl.Range
	DeclRange hcl.Range
}

// TestModule is a run block's module block.
type TestModule struct {
	// Source is the module's source address as written: a local path
	// relative to the module directory, or a registry address.
	Source      string
	SourceRange hcl.Range
	// Version is the version constraint of a registry module; "" when absent.
	Version   string
	DeclRange hcl.Range
}

// OverrideKind says what an override block replaces.
type OverrideKind uint8

const (
	// OverrideResource is override_resource: a managed resource's values.
	OverrideResource OverrideKind = iota + 1
	// OverrideData is override_data: a data source's values.
	OverrideData
	// OverrideModule is override_module: a module call's outputs.
	OverrideModule
	// OverrideEphemeral is override_ephemeral (Terraform 1.16): an
	// ephemeral resource's values.
	OverrideEphemeral
)

// BlockType returns the block type of the kind.
func (k OverrideKind) BlockType() string {
	switch k {
	case OverrideData:
		return "override_data"
	case OverrideModule:
		return "override_module"
	case OverrideEphemeral:
		return "override_ephemeral"
	}
	return "override_resource"
}

// OverrideTime says when an override's or a mock's values take the place
// of the provider's: computed attributes are known from the plan, or only
// once applied (the default, as in Terraform; override_during).
type OverrideTime uint8

const (
	// DuringApply gives the values at apply; the plan has them unknown.
	DuringApply OverrideTime = iota
	// DuringPlan gives the values at plan already.
	DuringPlan
)

// Override is an override_resource, override_data, override_ephemeral or
// override_module block.
type Override struct {
	Kind OverrideKind
	// Target is the address targeted: a resource or one of its instances
	// (override_resource, override_data), a module call or one of its
	// instances (override_module). A module step without a key stands for
	// every instance of the call.
	Target      addrs.Target
	TargetRange hcl.Range
	// Values are the values or outputs given; nil when absent.
	Values map[string]cty.Value
	// During is override_during; DuringSet says it was given.
	During    OverrideTime
	DuringSet bool
	DeclRange hcl.Range
}

// MockProvider is a mock_provider block: a provider configuration served
// without the provider's plugin, with values from the schema, its mock
// resources and its overrides.
type MockProvider struct {
	Name       string
	NameRange  hcl.Range
	Alias      string
	AliasRange *hcl.Range
	// ForEach is the provider-level for_each (OpenTofu 1.11); nil when absent.
	ForEach hcl.Expression
	// Source is the directory of .tfmock.hcl files the block names,
	// relative to the module directory; "" when absent.
	Source string
	// Resources are the mock_resource, mock_data and mock_ephemeral blocks.
	Resources []*MockResource
	// Overrides are the override blocks inside the mock_provider.
	Overrides []*Override
	// During is the block's override_during, the default of its mocks.
	During    OverrideTime
	DeclRange hcl.Range
}

// Key returns the block's key in TestFile.Mocks: "name" or "name.alias".
func (p *MockProvider) Key() string { return providerKey(p.Name, p.Alias) }

// MockResource is a mock_resource, mock_data or mock_ephemeral block:
// default values for every resource (data source, ephemeral resource) of a
// type a mock provider serves.
type MockResource struct {
	Mode addrs.ResourceMode
	Type string
	// Defaults are the values given; nil when absent.
	Defaults  map[string]cty.Value
	During    OverrideTime
	DuringSet bool
	DeclRange hcl.Range
}
