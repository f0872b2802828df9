package plugin

import (
	"context"
	"fmt"
	"sync"
	"time"

	goplugin "github.com/hashicorp/go-plugin"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Provider is a provider plugin process seen through provider.Interface.
// It speaks whichever protocol version (5 or 6) the plugin negotiated. Its
// methods are safe for concurrent use. Problems the provider reports, and
// failed calls, come back as diagnostics; no provider response makes it
// panic.
type Provider struct {
	meta   Meta
	client *goplugin.Client
	proto  protocol

	// mu guards the schema cache: filled by the first GetProviderSchema
	// call that reached the provider, then read-only.
	mu          sync.Mutex
	schema      *wireSchemas
	schemaDiags diag.Diagnostics
}

var _ provider.Interface = (*Provider)(nil)

// ProtocolVersion returns the plugin protocol major version in use, 5 or 6.
func (p *Provider) ProtocolVersion() int { return p.proto.version() }

// loadSchema returns the provider's schemas, fetching them on first use. A
// call that failed in transit is not cached, so a later call retries.
func (p *Provider) loadSchema(ctx context.Context) (*wireSchemas, diag.Diagnostics) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.schema != nil {
		return p.schema, p.schemaDiags
	}
	ws, err := p.proto.getSchema(ctx)
	if err != nil {
		return nil, diag.Diagnostics{p.callFailed("GetProviderSchema", err)}
	}
	p.addIdentitySchemas(ctx, &ws)
	ws.index()
	p.schema, p.schemaDiags = &ws, ws.diags
	return p.schema, p.schemaDiags
}

// GetProviderSchema returns the provider's schemas, fetched once per
// process. The result is shared: callers must not modify it.
func (p *Provider) GetProviderSchema(ctx context.Context) (*provider.Schemas, diag.Diagnostics) {
	ws, ds := p.loadSchema(ctx)
	if ws == nil {
		return nil, ds
	}
	return &ws.schemas, ds
}

// schemaFor looks up the implied type of a provider, resource type or data
// source schema; kind is "provider", "resource" or "data source".
func (p *Provider) schemaFor(ctx context.Context, kind, typeName string) (cty.Type, *wireSchemas, diag.Diagnostics) {
	ws, ds := p.loadSchema(ctx)
	if ds.HasErrors() {
		return cty.NilType, nil, ds
	}
	var ty cty.Type
	var ok bool
	switch kind {
	case "provider":
		ty, ok = ws.providerType, true
	case "resource":
		ty, ok = ws.resourceTypes[typeName]
	case "data source":
		ty, ok = ws.dataSourceTypes[typeName]
	}
	if !ok {
		return cty.NilType, nil, diag.Diagnostics{diag.Errorf("Invalid "+kind+" type",
			"The provider %s does not support %s type %q.", p.meta, kind, typeName)}
	}
	return ty, ws, nil
}

// index computes, once, what every call needs from the schemas: the
// implied types and the null provider_meta value.
func (ws *wireSchemas) index() {
	ws.providerType = ws.schemas.Provider.Block.ImpliedType()
	ws.resourceTypes = make(map[string]cty.Type, len(ws.schemas.ResourceTypes))
	ws.identityTypes = map[string]cty.Type{}
	for name, s := range ws.schemas.ResourceTypes {
		ws.resourceTypes[name] = s.Block.ImpliedType()
		if s.Identity != nil {
			ws.identityTypes[name] = s.Identity.ImpliedType()
		}
	}
	ws.dataSourceTypes = make(map[string]cty.Type, len(ws.schemas.DataSources))
	for name, s := range ws.schemas.DataSources {
		ws.dataSourceTypes[name] = s.Block.ImpliedType()
	}
	if ws.providerMeta != nil {
		ws.metaType = ws.providerMeta.Block.ImpliedType()
		dv := nullValue(ws.metaType)
		ws.metaValue = &dv
		ws.schemas.ProviderMeta = ws.providerMeta
	}
}

// providerMetaValue returns the provider_meta value sent with resource
// calls: v (a module's provider_meta block) encoded, a null value when v is
// cty.NilVal, or nil when the provider declares no provider_meta schema.
// Providers that declare one expect a value of its type.
func (ws *wireSchemas) providerMetaValue(v cty.Value) (*dynamicValue, error) {
	if ws.metaValue == nil || v == cty.NilVal {
		return ws.metaValue, nil
	}
	dv, err := encodeValue(v, ws.metaType)
	if err != nil {
		return nil, err
	}
	return &dv, nil
}

// ValidateProviderConfig checks a provider configuration.
func (p *Provider) ValidateProviderConfig(ctx context.Context, config cty.Value) diag.Diagnostics {
	ty, _, ds := p.schemaFor(ctx, "provider", "")
	if ds.HasErrors() {
		return ds
	}
	dv, err := encodeValue(config, ty)
	if err != nil {
		return diag.Diagnostics{p.encodeFailed("provider configuration", err)}
	}
	more, err := p.proto.validateProviderConfig(ctx, dv)
	if err != nil {
		return diag.Diagnostics{p.callFailed("ValidateProviderConfig", err)}
	}
	return more
}

// ValidateResourceConfig checks one resource's configuration.
func (p *Provider) ValidateResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	ty, _, ds := p.schemaFor(ctx, "resource", typeName)
	if ds.HasErrors() {
		return ds
	}
	dv, err := encodeValue(config, ty)
	if err != nil {
		return diag.Diagnostics{p.encodeFailed(typeName+" configuration", err)}
	}
	more, err := p.proto.validateResourceConfig(ctx, typeName, dv)
	if err != nil {
		return diag.Diagnostics{p.callFailed("ValidateResourceConfig", err)}
	}
	return more
}

// ValidateDataResourceConfig checks one data source's configuration.
func (p *Provider) ValidateDataResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	ty, _, ds := p.schemaFor(ctx, "data source", typeName)
	if ds.HasErrors() {
		return ds
	}
	dv, err := encodeValue(config, ty)
	if err != nil {
		return diag.Diagnostics{p.encodeFailed(typeName+" configuration", err)}
	}
	more, err := p.proto.validateDataResourceConfig(ctx, typeName, dv)
	if err != nil {
		return diag.Diagnostics{p.callFailed("ValidateDataResourceConfig", err)}
	}
	return more
}

// ConfigureProvider passes the provider its configuration.
func (p *Provider) ConfigureProvider(ctx context.Context, req provider.ConfigureRequest) diag.Diagnostics {
	ty, _, ds := p.schemaFor(ctx, "provider", "")
	if ds.HasErrors() {
		return ds
	}
	dv, err := encodeValue(req.Config, ty)
	if err != nil {
		return diag.Diagnostics{p.encodeFailed("provider configuration", err)}
	}
	more, err := p.proto.configure(ctx, req.TerraformVersion, dv)
	if err != nil {
		return diag.Diagnostics{p.callFailed("ConfigureProvider", err)}
	}
	return more
}

// UpgradeResourceState asks the provider to bring a stored object (its raw
// JSON, at the given schema version) to the current schema.
func (p *Provider) UpgradeResourceState(ctx context.Context, req provider.UpgradeRequest) provider.UpgradeResponse {
	ty, ws, ds := p.schemaFor(ctx, "resource", req.TypeName)
	if ds.HasErrors() {
		return provider.UpgradeResponse{Diagnostics: ds}
	}
	identity, ids := p.upgradeIdentity(ctx, ws, req)
	if ids.HasErrors() {
		return provider.UpgradeResponse{UpgradedState: cty.NullVal(ty), Diagnostics: ids}
	}
	dv, ds, err := p.proto.upgradeResourceState(ctx, wireUpgradeRequest{typeName: req.TypeName, version: req.Version, rawJSON: req.RawStateJSON, flatmap: req.RawStateFlatmap})
	if err != nil {
		return provider.UpgradeResponse{Diagnostics: diag.Diagnostics{p.callFailed("UpgradeResourceState", err)}}
	}
	if ds.HasErrors() {
		return provider.UpgradeResponse{UpgradedState: cty.NullVal(ty), Diagnostics: ds}
	}
	v, err := decodeValue(dv, ty)
	if err != nil {
		return provider.UpgradeResponse{UpgradedState: cty.NullVal(ty), Diagnostics: ds.Append(p.decodeFailed("UpgradeResourceState", err))}
	}
	return provider.UpgradeResponse{UpgradedState: v, UpgradedIdentity: identity, Diagnostics: ids.Append(ds)}
}

// ReadResource refreshes an object; a null NewState means it is gone.
func (p *Provider) ReadResource(ctx context.Context, req provider.ReadRequest) provider.ReadResponse {
	ty, ws, ds := p.schemaFor(ctx, "resource", req.TypeName)
	if ds.HasErrors() {
		return provider.ReadResponse{Diagnostics: ds}
	}
	state, err := encodeValue(req.PriorState, ty)
	if err != nil {
		return provider.ReadResponse{Diagnostics: diag.Diagnostics{p.encodeFailed(req.TypeName+" prior state", err)}}
	}
	meta, err := ws.providerMetaValue(req.ProviderMeta)
	if err != nil {
		return provider.ReadResponse{Diagnostics: diag.Diagnostics{p.encodeFailed("provider_meta", err)}}
	}
	curID, err := ws.encodeIdentity(req.TypeName, req.CurrentIdentity)
	if err != nil {
		return provider.ReadResponse{Diagnostics: diag.Diagnostics{p.encodeFailed(req.TypeName+" identity", err)}}
	}
	resp, err := p.proto.readResource(ctx, wireReadRequest{typeName: req.TypeName, currentState: state, private: req.Private, providerMeta: meta, currentIdentity: curID})
	if err != nil {
		return provider.ReadResponse{Diagnostics: diag.Diagnostics{p.callFailed("ReadResource", err)}}
	}
	out := provider.ReadResponse{Private: resp.private, Diagnostics: resp.diags}
	if resp.deferred {
		out.Diagnostics = out.Diagnostics.Append(p.deferred("ReadResource"))
	}
	if out.NewState, err = decodeValue(resp.newState, ty); err != nil {
		out.NewState = cty.NullVal(ty)
		out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("ReadResource", err))
	}
	if out.NewIdentity, err = ws.decodeIdentity(req.TypeName, resp.newIdentity); err != nil {
		out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("ReadResource", err))
	}
	return out
}

// PlanResourceChange asks the provider to plan a create, update or delete.
// A delete is planned without a call (the planned state is null) unless
// the provider announced the plan_destroy capability.
func (p *Provider) PlanResourceChange(ctx context.Context, req provider.PlanRequest) provider.PlanResponse {
	ty, ws, ds := p.schemaFor(ctx, "resource", req.TypeName)
	if ds.HasErrors() {
		return provider.PlanResponse{Diagnostics: ds}
	}
	if req.ProposedNewState.IsNull() && !ws.capabilities.planDestroy {
		return provider.PlanResponse{PlannedState: cty.NullVal(ty), PlannedPrivate: req.PriorPrivate}
	}
	meta, err := ws.providerMetaValue(req.ProviderMeta)
	if err != nil {
		return provider.PlanResponse{Diagnostics: diag.Diagnostics{p.encodeFailed("provider_meta", err)}}
	}
	wreq := wirePlanRequest{typeName: req.TypeName, priorPrivate: req.PriorPrivate, providerMeta: meta}
	for _, v := range []struct {
		what string
		val  cty.Value
		dst  *dynamicValue
	}{
		{"prior state", req.PriorState, &wreq.priorState},
		{"proposed new state", req.ProposedNewState, &wreq.proposedNewState},
		{"configuration", req.Config, &wreq.config},
	} {
		if *v.dst, err = encodeValue(v.val, ty); err != nil {
			return provider.PlanResponse{Diagnostics: diag.Diagnostics{p.encodeFailed(req.TypeName+" "+v.what, err)}}
		}
	}
	if wreq.priorIdentity, err = ws.encodeIdentity(req.TypeName, req.PriorIdentity); err != nil {
		return provider.PlanResponse{Diagnostics: diag.Diagnostics{p.encodeFailed(req.TypeName+" prior identity", err)}}
	}
	resp, err := p.proto.planResourceChange(ctx, wreq)
	if err != nil {
		return provider.PlanResponse{Diagnostics: diag.Diagnostics{p.callFailed("PlanResourceChange", err)}}
	}
	out := provider.PlanResponse{
		RequiresReplace:  resp.requiresReplace,
		PlannedPrivate:   resp.plannedPrivate,
		Diagnostics:      resp.diags,
		LegacyTypeSystem: resp.legacyTypeSystem,
	}
	if resp.deferred {
		out.Diagnostics = out.Diagnostics.Append(p.deferred("PlanResourceChange"))
	}
	if out.PlannedState, err = decodeValue(resp.plannedState, ty); err != nil {
		out.PlannedState = cty.NullVal(ty)
		out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("PlanResourceChange", err))
	}
	if out.PlannedIdentity, err = ws.decodeIdentity(req.TypeName, resp.plannedIdentity); err != nil {
		out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("PlanResourceChange", err))
	}
	return out
}

// ApplyResourceChange asks the provider to carry out a planned change. With
// error diagnostics, NewState is whatever partial object the provider
// returned (null if none).
func (p *Provider) ApplyResourceChange(ctx context.Context, req provider.ApplyRequest) provider.ApplyResponse {
	ty, ws, ds := p.schemaFor(ctx, "resource", req.TypeName)
	if ds.HasErrors() {
		return provider.ApplyResponse{Diagnostics: ds}
	}
	meta, err := ws.providerMetaValue(req.ProviderMeta)
	if err != nil {
		return provider.ApplyResponse{Diagnostics: diag.Diagnostics{p.encodeFailed("provider_meta", err)}}
	}
	wreq := wireApplyRequest{typeName: req.TypeName, plannedPrivate: req.PlannedPrivate, providerMeta: meta}
	for _, v := range []struct {
		what string
		val  cty.Value
		dst  *dynamicValue
	}{
		{"prior state", req.PriorState, &wreq.priorState},
		{"planned state", req.PlannedState, &wreq.plannedState},
		{"configuration", req.Config, &wreq.config},
	} {
		if *v.dst, err = encodeValue(v.val, ty); err != nil {
			return provider.ApplyResponse{Diagnostics: diag.Diagnostics{p.encodeFailed(req.TypeName+" "+v.what, err)}}
		}
	}
	if wreq.plannedIdentity, err = ws.encodeIdentity(req.TypeName, req.PlannedIdentity); err != nil {
		return provider.ApplyResponse{Diagnostics: diag.Diagnostics{p.encodeFailed(req.TypeName+" planned identity", err)}}
	}
	resp, err := p.proto.applyResourceChange(ctx, wreq)
	if err != nil {
		return provider.ApplyResponse{Diagnostics: diag.Diagnostics{p.callFailed("ApplyResourceChange", err)}}
	}
	out := provider.ApplyResponse{Private: resp.private, Diagnostics: resp.diags, LegacyTypeSystem: resp.legacyTypeSystem}
	if out.NewState, err = decodeValue(resp.newState, ty); err != nil {
		out.NewState = cty.NullVal(ty)
		out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("ApplyResourceChange", err))
	}
	if out.NewIdentity, err = ws.decodeIdentity(req.TypeName, resp.newIdentity); err != nil {
		out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("ApplyResourceChange", err))
	}
	return out
}

// ImportResourceState asks the provider for the objects an import ID names.
func (p *Provider) ImportResourceState(ctx context.Context, req provider.ImportRequest) provider.ImportResponse {
	_, ws, ds := p.schemaFor(ctx, "resource", req.TypeName)
	if ds.HasErrors() {
		return provider.ImportResponse{Diagnostics: ds}
	}
	var identity *dynamicValue
	if req.Identity != cty.NilVal {
		if _, ok := ws.identityType(req.TypeName); !ok {
			return provider.ImportResponse{Diagnostics: diag.Diagnostics{diag.Errorf("Resource type does not support import by identity",
				"The provider %s declares no resource identity for %s, so an object of it can only be imported by its ID.", p.meta, req.TypeName)}}
		}
		var err error
		if identity, err = ws.encodeIdentity(req.TypeName, req.Identity); err != nil {
			return provider.ImportResponse{Diagnostics: diag.Diagnostics{p.encodeFailed(req.TypeName+" import identity", err)}}
		}
	}
	resp, err := p.proto.importResourceState(ctx, req.TypeName, req.ID, identity)
	if err != nil {
		return provider.ImportResponse{Diagnostics: diag.Diagnostics{p.callFailed("ImportResourceState", err)}}
	}
	out := provider.ImportResponse{Diagnostics: resp.diags}
	if resp.deferred {
		out.Diagnostics = out.Diagnostics.Append(p.deferred("ImportResourceState"))
	}
	for _, imp := range resp.imported {
		ty, _, ds := p.schemaFor(ctx, "resource", imp.typeName)
		if ds.HasErrors() {
			out.Diagnostics = out.Diagnostics.Append(ds)
			continue
		}
		v, err := decodeValue(imp.state, ty)
		if err != nil {
			out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("ImportResourceState", err))
			continue
		}
		id, err := ws.decodeIdentity(imp.typeName, imp.identity)
		if err != nil {
			out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("ImportResourceState", err))
			continue
		}
		out.Imported = append(out.Imported, provider.ImportedObject{TypeName: imp.typeName, State: v, Private: imp.private, Identity: id})
	}
	return out
}

// ReadDataSource reads a data source.
func (p *Provider) ReadDataSource(ctx context.Context, req provider.ReadDataRequest) provider.ReadDataResponse {
	ty, ws, ds := p.schemaFor(ctx, "data source", req.TypeName)
	if ds.HasErrors() {
		return provider.ReadDataResponse{Diagnostics: ds}
	}
	cfg, err := encodeValue(req.Config, ty)
	if err != nil {
		return provider.ReadDataResponse{Diagnostics: diag.Diagnostics{p.encodeFailed(req.TypeName+" configuration", err)}}
	}
	var meta dynamicValue
	mv, err := ws.providerMetaValue(req.ProviderMeta)
	if err != nil {
		return provider.ReadDataResponse{Diagnostics: diag.Diagnostics{p.encodeFailed("provider_meta", err)}}
	}
	if mv != nil {
		meta = *mv
	}
	resp, err := p.proto.readDataSource(ctx, req.TypeName, cfg, meta)
	if err != nil {
		return provider.ReadDataResponse{Diagnostics: diag.Diagnostics{p.callFailed("ReadDataSource", err)}}
	}
	out := provider.ReadDataResponse{Diagnostics: resp.diags}
	if resp.deferred {
		out.Diagnostics = out.Diagnostics.Append(p.deferred("ReadDataSource"))
	}
	if out.State, err = decodeValue(resp.state, ty); err != nil {
		out.State = cty.NullVal(ty)
		out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("ReadDataSource", err))
	}
	return out
}

// Stop asks the provider to cancel its in-flight operations. It returns
// when the provider acknowledged, not when they ended.
func (p *Provider) Stop(ctx context.Context) error {
	msg, err := p.proto.stop(ctx)
	if err != nil {
		return fmt.Errorf("stop provider %s: %w", p.meta, err)
	}
	if msg != "" {
		return fmt.Errorf("stop provider %s: %s", p.meta, msg)
	}
	return nil
}

// Close ends the plugin process (gracefully, then by force after two
// seconds). A reattached provider in test mode keeps running. Close may be
// called more than once.
func (p *Provider) Close() error {
	p.client.Kill()
	return nil
}

// Exited reports whether the plugin process has ended.
func (p *Provider) Exited() bool { return p.client.Exited() }

// callFailed turns a failed gRPC call into an error diagnostic.
func (p *Provider) callFailed(method string, err error) diag.Diagnostic {
	st, _ := status.FromError(err)
	switch st.Code() {
	case codes.Unavailable:
		// A process that crashed has written why to its stderr, which
		// go-plugin has read whole once it marks the process exited.
		if p.client != nil && p.awaitExit(time.Second) {
			if c, ok := crashOf(p.meta); ok {
				return diag.Errorf("Plugin did not respond",
					"The plugin encountered an error, and failed to respond to the %s call of provider %s. It crashed with:\n\n%s\n\nThe plugin's stack trace follows the other messages.",
					method, p.meta, crashMessage(c))
			}
		}
		return diag.Errorf("Plugin did not respond",
			"The provider %s did not respond to the %s call: %s. The provider may have crashed; its log may say more (set TF_LOG=DEBUG).", p.meta, method, st.Message())
	case codes.Unimplemented:
		return diag.Errorf("Unsupported plugin method",
			"The provider %s does not implement %s: %s.", p.meta, method, st.Message())
	case codes.Canceled, codes.DeadlineExceeded:
		return diag.Errorf("Plugin call interrupted", "The %s call to provider %s was interrupted: %s.", method, p.meta, st.Message())
	}
	return diag.Errorf("Plugin error", "The %s call to provider %s failed: %s.", method, p.meta, err)
}

func (p *Provider) encodeFailed(what string, err error) diag.Diagnostic {
	return diag.Errorf("Invalid value for provider", "rig could not send the %s to provider %s: %s.", what, p.meta, err)
}

func (p *Provider) decodeFailed(method string, err error) diag.Diagnostic {
	return diag.Errorf("Invalid provider response",
		"The provider %s returned an invalid value from %s: %s. This is a bug in the provider; please report it to its developers.", p.meta, method, err)
}

func (p *Provider) deferred(method string) diag.Diagnostic {
	return diag.Errorf("Provider deferred the operation",
		"The provider %s deferred its %s response, which rig does not support (it tells providers so).", p.meta, method)
}
