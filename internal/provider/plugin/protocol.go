package plugin

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// protocol is one major version of the plugin protocol as the Provider
// adapter sees it: the gRPC calls with values still encoded, and everything
// else (schemas, diagnostics, attribute paths) already converted to rig's
// types. client5 and client6 implement it. A returned error is a failed
// call (transport or gRPC status), never a problem the provider reported:
// those are diagnostics.
type protocol interface {
	version() int
	getSchema(ctx context.Context) (wireSchemas, error)
	validateProviderConfig(ctx context.Context, config dynamicValue) (diag.Diagnostics, error)
	validateResourceConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error)
	validateDataResourceConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error)
	configure(ctx context.Context, terraformVersion string, config dynamicValue) (diag.Diagnostics, error)
	upgradeResourceState(ctx context.Context, req wireUpgradeRequest) (dynamicValue, diag.Diagnostics, error)
	readResource(ctx context.Context, req wireReadRequest) (wireReadResponse, error)
	planResourceChange(ctx context.Context, req wirePlanRequest) (wirePlanResponse, error)
	applyResourceChange(ctx context.Context, req wireApplyRequest) (wireApplyResponse, error)
	importResourceState(ctx context.Context, typeName, id string, identity *dynamicValue) (wireImportResponse, error)
	readDataSource(ctx context.Context, typeName string, config, meta dynamicValue) (wireReadDataResponse, error)
	getFunctions(ctx context.Context) (map[string]provider.FunctionSpec, diag.Diagnostics, error)
	callFunction(ctx context.Context, name string, args []dynamicValue) (dynamicValue, *provider.FunctionError, error)
	stop(ctx context.Context) (string, error)
	// getIdentitySchemas returns the resource identity schemas by resource
	// type; a provider that predates identities answers Unimplemented.
	getIdentitySchemas(ctx context.Context) (map[string]provider.Schema, diag.Diagnostics, error)
	upgradeResourceIdentity(ctx context.Context, typeName string, version int64, rawJSON []byte) (dynamicValue, diag.Diagnostics, error)
	// listResource calls found for every event the provider streams.
	listResource(ctx context.Context, req wireListRequest, found func(wireListed)) error
	// The action calls (action.go); a provider that predates them answers
	// Unimplemented.
	validateActionConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error)
	planAction(ctx context.Context, typeName string, config dynamicValue) (ds diag.Diagnostics, deferred bool, err error)
	invokeAction(ctx context.Context, typeName string, config dynamicValue, event func(actionEvent)) error
	// moveResourceState converts an object of another resource type.
	moveResourceState(ctx context.Context, req wireMoveRequest) (wireMoveResponse, error)
	// validateListResourceConfig checks a list block's config.
	validateListResourceConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error)
	// The ephemeral resource calls (ephemeral.go); a provider that
	// predates them answers Unimplemented.
	validateEphemeralResourceConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error)
	openEphemeralResource(ctx context.Context, typeName string, config dynamicValue) (wireEphemeralResponse, error)
	renewEphemeralResource(ctx context.Context, typeName string, private []byte) (wireEphemeralResponse, error)
	closeEphemeralResource(ctx context.Context, typeName string, private []byte) (diag.Diagnostics, error)
}

// dynamicValue is a DynamicValue of either protocol version. A zero
// dynamicValue is absent (decoded as null); nil means "send no value".
type dynamicValue struct {
	msgpack []byte
	json    []byte
}

// wireSchemas is a GetProviderSchema response in rig's types.
type wireSchemas struct {
	schemas      provider.Schemas
	providerMeta *provider.Schema // nil when the provider declares none
	functions    map[string]provider.FunctionSpec
	capabilities serverCapabilities
	diags        diag.Diagnostics

	// Filled by index when the schemas are cached.
	providerType    cty.Type
	resourceTypes   map[string]cty.Type
	dataSourceTypes map[string]cty.Type
	metaType        cty.Type
	metaValue       *dynamicValue
	// identityTypes are the implied types of the identity schemas, filled
	// by index.
	identityTypes map[string]cty.Type
}

// serverCapabilities are the optional features a provider announces.
type serverCapabilities struct {
	planDestroy               bool
	getProviderSchemaOptional bool
	moveResourceState         bool
}

type wireUpgradeRequest struct {
	typeName string
	version  int64
	rawJSON  []byte
	flatmap  map[string]string
}

type wireReadRequest struct {
	typeName        string
	currentState    dynamicValue
	private         []byte
	providerMeta    *dynamicValue
	currentIdentity *dynamicValue
}

type wireReadResponse struct {
	newState    dynamicValue
	private     []byte
	deferred    bool
	diags       diag.Diagnostics
	newIdentity *dynamicValue
}

type wirePlanRequest struct {
	typeName         string
	priorState       dynamicValue
	proposedNewState dynamicValue
	config           dynamicValue
	priorPrivate     []byte
	providerMeta     *dynamicValue
	priorIdentity    *dynamicValue
}

type wirePlanResponse struct {
	plannedState     dynamicValue
	requiresReplace  []cty.Path
	plannedPrivate   []byte
	legacyTypeSystem bool
	deferred         bool
	diags            diag.Diagnostics
	plannedIdentity  *dynamicValue
}

type wireApplyRequest struct {
	typeName        string
	priorState      dynamicValue
	plannedState    dynamicValue
	config          dynamicValue
	plannedPrivate  []byte
	providerMeta    *dynamicValue
	plannedIdentity *dynamicValue
}

type wireApplyResponse struct {
	newState         dynamicValue
	private          []byte
	legacyTypeSystem bool
	diags            diag.Diagnostics
	newIdentity      *dynamicValue
}

type wireImported struct {
	typeName string
	state    dynamicValue
	private  []byte
	identity *dynamicValue
}

type wireImportResponse struct {
	imported []wireImported
	deferred bool
	diags    diag.Diagnostics
}

type wireReadDataResponse struct {
	state    dynamicValue
	deferred bool
	diags    diag.Diagnostics
}

// wireMoveRequest is a MoveResourceState request.
type wireMoveRequest struct {
	sourceProvider, sourceType, targetType string
	sourceVersion                          int64
	sourceJSON, sourcePrivate              []byte
	sourceIdentityJSON                     []byte
	sourceIdentityVersion                  int64
}

// wireMoveResponse is a MoveResourceState response.
type wireMoveResponse struct {
	state    dynamicValue
	private  []byte
	identity *dynamicValue
	diags    diag.Diagnostics
}

// wireListRequest is a ListResource request.
type wireListRequest struct {
	typeName        string
	config          dynamicValue
	includeResource bool
	limit           int64
}

// wireListed is one event of a ListResource stream.
type wireListed struct {
	identity    *dynamicValue
	displayName string
	resource    *dynamicValue
	diags       diag.Diagnostics
}

// identityData returns the dynamic value of an identity message; nil when
// the message carries none.
func identityData(msgpack, json []byte, present bool) *dynamicValue {
	if !present || (msgpack == nil && json == nil) {
		return nil
	}
	return &dynamicValue{msgpack: msgpack, json: json}
}
