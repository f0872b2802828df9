package provider

import (
	"context"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
)

// Interface is what the engine calls on a provider. Every method is safe for
// concurrent use once ConfigureProvider has returned. Values are cty objects
// conforming to the schema the provider reported.
type Interface interface {
	// GetProviderSchema returns the schemas of the provider, its resource types and data sources.
	GetProviderSchema(ctx context.Context) (*Schemas, diag.Diagnostics)
	// ValidateProviderConfig checks a provider configuration before ConfigureProvider.
	ValidateProviderConfig(ctx context.Context, config cty.Value) diag.Diagnostics
	// ValidateResourceConfig checks one resource's configuration (unknowns allowed).
	ValidateResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics
	// ValidateDataResourceConfig checks one data source's configuration.
	ValidateDataResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics
	// ConfigureProvider passes the provider its configuration.
	ConfigureProvider(ctx context.Context, req ConfigureRequest) diag.Diagnostics
	// UpgradeResourceState brings a stored object to the current schema version.
	UpgradeResourceState(ctx context.Context, req UpgradeRequest) UpgradeResponse
	// ReadResource refreshes an object from the remote system; a null NewState means it is gone.
	ReadResource(ctx context.Context, req ReadRequest) ReadResponse
	// PlanResourceChange proposes the planned new object for a create, update or delete.
	PlanResourceChange(ctx context.Context, req PlanRequest) PlanResponse
	// ApplyResourceChange carries out a planned change.
	ApplyResourceChange(ctx context.Context, req ApplyRequest) ApplyResponse
	// ImportResourceState turns an import ID into one or more objects.
	ImportResourceState(ctx context.Context, req ImportRequest) ImportResponse
	// ReadDataSource reads a data source.
	ReadDataSource(ctx context.Context, req ReadDataRequest) ReadDataResponse
	// ListResource lists the existing objects of a list resource type that
	// match a configuration, calling found for each as the provider
	// streams them (see ListRequest).
	ListResource(ctx context.Context, req ListRequest, found func(ListedObject)) diag.Diagnostics
	// MoveResourceState converts an object of another resource type, of
	// this provider or another, into one of req.TargetTypeName: a moved
	// block whose source and destination types differ.
	MoveResourceState(ctx context.Context, req MoveRequest) MoveResponse
	// ValidateListResourceConfig checks a list block's config block (a
	// value of the list resource schema's type) before ListResource.
	ValidateListResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics
	// GetFunctions returns the provider-defined functions by name. It may
	// be called before ConfigureProvider. The map is shared: callers must
	// not modify it.
	GetFunctions(ctx context.Context) (map[string]FunctionSpec, diag.Diagnostics)
	// CallFunction calls a provider-defined function with args, which
	// conform to its parameters (the variadic ones last, none of them
	// unknown unless the parameter allows it). It may be called before
	// ConfigureProvider. A failure the function reports is a
	// *FunctionError; any other error is a failed call.
	CallFunction(ctx context.Context, name string, args []cty.Value) (cty.Value, error)
	// Stop asks the provider to cancel in-flight operations promptly.
	Stop(ctx context.Context) error
	// Close releases the provider (ends its process for a plugin).
	Close() error
}

// MoveRequest carries an object recorded under another resource type to
// the provider of the type it moves to.
type MoveRequest struct {
	// SourceProvider is the address of the provider the object was
	// recorded with (registry.terraform.io/hashicorp/null).
	SourceProvider string
	SourceTypeName string
	// SourceSchemaVersion and SourceStateJSON are the object as recorded.
	SourceSchemaVersion int64
	SourceStateJSON     []byte
	SourcePrivate       []byte
	// SourceIdentityJSON and SourceIdentityVersion are the recorded
	// identity; nil when there is none.
	SourceIdentityJSON    []byte
	SourceIdentityVersion int64
	TargetTypeName        string
}

// MoveResponse is the object as the target resource type records it.
type MoveResponse struct {
	TargetState   cty.Value
	TargetPrivate []byte
	// TargetIdentity is the object's identity under the target type;
	// cty.NilVal when the provider returned none.
	TargetIdentity cty.Value
	Diagnostics    diag.Diagnostics
}

// ConfigureRequest carries the provider configuration.
type ConfigureRequest struct {
	TerraformVersion string
	Config           cty.Value
}

// UpgradeRequest carries a stored object in its raw JSON form.
type UpgradeRequest struct {
	TypeName string
	// Version is the schema version the object was stored with.
	Version int64
	// RawStateJSON is the stored attributes object.
	RawStateJSON []byte
	// RawStateFlatmap is the stored attributes in the flattened form of
	// the state formats before version 4 ("tags.%", "ports.0"), when
	// RawStateJSON is nil.
	RawStateFlatmap map[string]string
	// IdentityVersion and RawIdentityJSON are the stored resource identity
	// and its schema version; RawIdentityJSON is nil when none is stored.
	IdentityVersion int64
	RawIdentityJSON []byte
}

// UpgradeResponse carries the object decoded in the current schema.
type UpgradeResponse struct {
	UpgradedState cty.Value
	Diagnostics   diag.Diagnostics
	// UpgradedIdentity is the identity in the current identity schema;
	// cty.NilVal when none was stored or the type declares no identity.
	UpgradedIdentity cty.Value
}

// ReadRequest asks for the current state of an object.
type ReadRequest struct {
	TypeName   string
	PriorState cty.Value
	Private    []byte
	// ProviderMeta is the provider_meta value of the resource's module
	// (see Schemas.ProviderMeta); cty.NilVal without one.
	ProviderMeta cty.Value
	// CurrentIdentity is the object's identity; cty.NilVal when none.
	CurrentIdentity cty.Value
}

// ReadResponse carries the refreshed object; a null NewState means it no longer exists.
type ReadResponse struct {
	NewState    cty.Value
	Private     []byte
	Diagnostics diag.Diagnostics
	// NewIdentity is the identity the provider returned; cty.NilVal when none.
	NewIdentity cty.Value
}

// PlanRequest asks for a planned change. PriorState is null for a create;
// ProposedNewState is null for a delete.
type PlanRequest struct {
	TypeName         string
	PriorState       cty.Value
	ProposedNewState cty.Value
	Config           cty.Value
	PriorPrivate     []byte
	// ProviderMeta is as in ReadRequest.
	ProviderMeta cty.Value
	// PriorIdentity is the prior object's identity; cty.NilVal when none.
	PriorIdentity cty.Value
}

// PlanResponse carries the planned object and the paths that force replacement.
type PlanResponse struct {
	PlannedState    cty.Value
	RequiresReplace []cty.Path
	PlannedPrivate  []byte
	Diagnostics     diag.Diagnostics
	// LegacyTypeSystem is set by SDKv2 providers whose results the engine tolerates with warnings.
	LegacyTypeSystem bool
	// PlannedIdentity is the identity the provider planned; cty.NilVal when none.
	PlannedIdentity cty.Value
	// Checked is set by the providers built into rig, whose planned
	// objects are valid plans (AssertPlanValid) by construction, as their
	// tests check: the engine does not check them again. Never set by a
	// plugin.
	Checked bool
}

// ApplyRequest asks to carry out a planned change; PlannedState is null for a delete.
type ApplyRequest struct {
	TypeName       string
	PriorState     cty.Value
	PlannedState   cty.Value
	Config         cty.Value
	PlannedPrivate []byte
	// ProviderMeta is as in ReadRequest.
	ProviderMeta cty.Value
	// PlannedIdentity is the identity the plan recorded; cty.NilVal when none.
	PlannedIdentity cty.Value
}

// ApplyResponse carries the new object (null after a delete). A provider may
// return a partial NewState together with error diagnostics; the engine records it.
type ApplyResponse struct {
	NewState         cty.Value
	Private          []byte
	Diagnostics      diag.Diagnostics
	LegacyTypeSystem bool
	// NewIdentity is the new object's identity; cty.NilVal when none.
	NewIdentity cty.Value
	// Checked is set by the providers built into rig, whose new objects
	// complete their planned ones (AssertObjectCompatible) by
	// construction, as their tests check: the engine does not check them
	// again. Never set by a plugin.
	Checked bool
}

// ImportRequest asks to import the object with the given ID.
type ImportRequest struct {
	TypeName string
	ID       string
	// Identity, when not cty.NilVal, names the object by its resource
	// identity instead of ID (an import block's identity argument).
	Identity cty.Value
}

// ImportedObject is one object returned by an import.
type ImportedObject struct {
	TypeName string
	State    cty.Value
	Private  []byte
	// Identity is the imported object's identity; cty.NilVal when none.
	Identity cty.Value
}

// ImportResponse carries the imported objects.
type ImportResponse struct {
	Imported    []ImportedObject
	Diagnostics diag.Diagnostics
}

// ReadDataRequest asks to read a data source.
type ReadDataRequest struct {
	TypeName string
	Config   cty.Value
	// ProviderMeta is as in ReadRequest.
	ProviderMeta cty.Value
}

// ReadDataResponse carries the data source's result.
type ReadDataResponse struct {
	State       cty.Value
	Diagnostics diag.Diagnostics
}

// Schemas is everything a provider describes about itself.
type Schemas struct {
	Provider      Schema
	ResourceTypes map[string]Schema
	DataSources   map[string]Schema
	// EphemeralResources are the schemas of the ephemeral resource types
	// (`ephemeral` blocks), empty for a provider without any.
	EphemeralResources map[string]Schema
	// ProviderMeta is the schema of the provider_meta blocks modules may
	// write for the provider; nil when it declares none.
	ProviderMeta *Schema
	// ListResources are the schemas of the list resource types (the
	// config block of a list block), by type name; nil when none.
	ListResources map[string]Schema
	// Actions are the schemas of the action types (the config block of an
	// action block), by type name; nil when none.
	Actions map[string]Schema
}

// ResourceTypeSchema returns the schema of the managed resource type (mode
// addrs.Managed), data source (addrs.Data) or ephemeral resource type
// (addrs.Ephemeral) typeName; false when s is nil or has no such type, or
// no block for it.
func (s *Schemas) ResourceTypeSchema(mode addrs.ResourceMode, typeName string) (Schema, bool) {
	if s == nil {
		return Schema{}, false
	}
	byType := s.ResourceTypes
	switch mode {
	case addrs.Data:
		byType = s.DataSources
	case addrs.Ephemeral:
		byType = s.EphemeralResources
	}
	sch, ok := byType[typeName]
	if !ok || sch.Block == nil {
		return Schema{}, false
	}
	return sch, true
}

// Schema is one versioned schema (a provider config, resource type or data source).
type Schema struct {
	Version int64
	Block   *Block
	// Identity is the schema of the resource identity of a managed
	// resource type (attributes only: Required means required for import,
	// Optional optional for import); nil when the type declares none.
	Identity *Block
	// IdentityVersion is the version of the Identity schema.
	IdentityVersion int64
}

// instanceKey is the context key of WithResourceInstance.
type instanceKey struct{}

// WithResourceInstance returns ctx naming the resource instance a provider
// call is made for (plan, apply, refresh and data source reads carry it);
// the built-in provider reads it (terraform_remote_state picks its state's
// encryption by it), and so do rig test's overrides. Plugins never see it.
func WithResourceInstance(ctx context.Context, addr addrs.AbsResourceInstance) context.Context {
	return context.WithValue(ctx, instanceKey{}, addr)
}

// ResourceInstanceOf returns the resource instance WithResourceInstance
// put in ctx.
func ResourceInstanceOf(ctx context.Context) (addrs.AbsResourceInstance, bool) {
	addr, ok := ctx.Value(instanceKey{}).(addrs.AbsResourceInstance)
	return addr, ok
}
