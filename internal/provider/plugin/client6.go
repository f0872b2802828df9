package plugin

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	proto "github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
	"github.com/zclconf/go-cty/cty"
)

// client6 speaks protocol 6 (ValidateProviderConfig, ConfigureProvider,
// StopProvider, nested attribute types).
type client6 struct {
	rpc proto.ProviderClient
}

var _ protocol = (*client6)(nil)

// capabilities6 is what rig tells protocol-6 providers it supports.
var capabilities6 = &proto.ClientCapabilities{DeferralAllowed: false, WriteOnlyAttributesAllowed: true}

func (c *client6) version() int { return 6 }

func (c *client6) getSchema(ctx context.Context) (wireSchemas, error) {
	resp, err := c.rpc.GetProviderSchema(ctx, &proto.GetProviderSchema_Request{})
	if err != nil {
		return wireSchemas{}, err
	}
	ws := wireSchemas{diags: diags6(resp.GetDiagnostics())}
	invalid := func(what string, err error) {
		ws.diags = ws.diags.Append(diag.Errorf("Invalid provider schema", "The schema of %s is invalid: %s.", what, err))
	}
	var err2 error
	if ws.schemas.Provider, err2 = schema6(resp.GetProvider()); err2 != nil {
		invalid("the provider configuration", err2)
	}
	if resp.GetProviderMeta().GetBlock() != nil {
		meta, err := schema6(resp.GetProviderMeta())
		if err != nil {
			invalid("provider_meta", err)
		} else {
			ws.providerMeta = &meta
		}
	}
	convertNamed(&ws, resp, schema6, function6, func(s *proto.ActionSchema) (provider.Schema, error) { return schema6(s.GetSchema()) }, invalid)
	caps := resp.GetServerCapabilities()
	ws.capabilities = serverCapabilities{
		planDestroy:               caps.GetPlanDestroy(),
		getProviderSchemaOptional: caps.GetGetProviderSchemaOptional(),
		moveResourceState:         caps.GetMoveResourceState(),
	}
	return ws, nil
}

func (c *client6) validateProviderConfig(ctx context.Context, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.ValidateProviderConfig(ctx, &proto.ValidateProviderConfig_Request{Config: dv6(config)})
	return diags6(resp.GetDiagnostics()), err
}

func (c *client6) validateResourceConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.ValidateResourceConfig(ctx, &proto.ValidateResourceConfig_Request{
		TypeName: typeName, Config: dv6(config), ClientCapabilities: capabilities6})
	return diags6(resp.GetDiagnostics()), err
}

func (c *client6) validateDataResourceConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.ValidateDataResourceConfig(ctx, &proto.ValidateDataResourceConfig_Request{TypeName: typeName, Config: dv6(config)})
	return diags6(resp.GetDiagnostics()), err
}

func (c *client6) configure(ctx context.Context, terraformVersion string, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.ConfigureProvider(ctx, &proto.ConfigureProvider_Request{
		TerraformVersion: terraformVersion, Config: dv6(config), ClientCapabilities: capabilities6})
	return diags6(resp.GetDiagnostics()), err
}

func (c *client6) upgradeResourceState(ctx context.Context, req wireUpgradeRequest) (dynamicValue, diag.Diagnostics, error) {
	resp, err := c.rpc.UpgradeResourceState(ctx, &proto.UpgradeResourceState_Request{
		TypeName: req.typeName,
		Version:  req.version,
		RawState: &proto.RawState{Json: req.rawJSON, Flatmap: req.flatmap},
	})
	if err != nil {
		return dynamicValue{}, nil, err
	}
	return fromDV6(resp.GetUpgradedState()), diags6(resp.GetDiagnostics()), nil
}

func (c *client6) readResource(ctx context.Context, req wireReadRequest) (wireReadResponse, error) {
	resp, err := c.rpc.ReadResource(ctx, &proto.ReadResource_Request{
		TypeName:           req.typeName,
		CurrentState:       dv6(req.currentState),
		Private:            req.private,
		ProviderMeta:       optDV6(req.providerMeta),
		ClientCapabilities: capabilities6,
		CurrentIdentity:    identityMsg6(req.currentIdentity),
	})
	if err != nil {
		return wireReadResponse{}, err
	}
	return wireReadResponse{
		newState: fromDV6(resp.GetNewState()),
		private:  resp.GetPrivate(),
		deferred: resp.GetDeferred() != nil,
		diags:    diags6(resp.GetDiagnostics()),

		newIdentity: identity6(resp.GetNewIdentity()),
	}, nil
}

func (c *client6) planResourceChange(ctx context.Context, req wirePlanRequest) (wirePlanResponse, error) {
	resp, err := c.rpc.PlanResourceChange(ctx, &proto.PlanResourceChange_Request{
		TypeName:           req.typeName,
		PriorState:         dv6(req.priorState),
		ProposedNewState:   dv6(req.proposedNewState),
		Config:             dv6(req.config),
		PriorPrivate:       req.priorPrivate,
		ProviderMeta:       optDV6(req.providerMeta),
		ClientCapabilities: capabilities6,
		PriorIdentity:      identityMsg6(req.priorIdentity),
	})
	if err != nil {
		return wirePlanResponse{}, err
	}
	out := wirePlanResponse{
		plannedState:     fromDV6(resp.GetPlannedState()),
		plannedPrivate:   resp.GetPlannedPrivate(),
		legacyTypeSystem: resp.GetLegacyTypeSystem(),
		deferred:         resp.GetDeferred() != nil,
		diags:            diags6(resp.GetDiagnostics()),
		plannedIdentity:  identity6(resp.GetPlannedIdentity()),
	}
	for _, ap := range resp.GetRequiresReplace() {
		out.requiresReplace = append(out.requiresReplace, path6(ap))
	}
	return out, nil
}

func (c *client6) applyResourceChange(ctx context.Context, req wireApplyRequest) (wireApplyResponse, error) {
	resp, err := c.rpc.ApplyResourceChange(ctx, &proto.ApplyResourceChange_Request{
		TypeName:       req.typeName,
		PriorState:     dv6(req.priorState),
		PlannedState:   dv6(req.plannedState),
		Config:         dv6(req.config),
		PlannedPrivate: req.plannedPrivate,
		ProviderMeta:   optDV6(req.providerMeta),

		PlannedIdentity: identityMsg6(req.plannedIdentity),
	})
	if err != nil {
		return wireApplyResponse{}, err
	}
	return wireApplyResponse{
		newState:         fromDV6(resp.GetNewState()),
		private:          resp.GetPrivate(),
		legacyTypeSystem: resp.GetLegacyTypeSystem(),
		diags:            diags6(resp.GetDiagnostics()),
		newIdentity:      identity6(resp.GetNewIdentity()),
	}, nil
}

func (c *client6) importResourceState(ctx context.Context, typeName, id string, identity *dynamicValue) (wireImportResponse, error) {
	resp, err := c.rpc.ImportResourceState(ctx, &proto.ImportResourceState_Request{
		TypeName: typeName, Id: id, ClientCapabilities: capabilities6, Identity: identityMsg6(identity)})
	if err != nil {
		return wireImportResponse{}, err
	}
	out := wireImportResponse{deferred: resp.GetDeferred() != nil, diags: diags6(resp.GetDiagnostics())}
	for _, imp := range resp.GetImportedResources() {
		out.imported = append(out.imported, wireImported{typeName: imp.GetTypeName(), state: fromDV6(imp.GetState()), private: imp.GetPrivate(), identity: identity6(imp.GetIdentity())})
	}
	return out, nil
}

func (c *client6) readDataSource(ctx context.Context, typeName string, config, meta dynamicValue) (wireReadDataResponse, error) {
	req := &proto.ReadDataSource_Request{TypeName: typeName, Config: dv6(config), ClientCapabilities: capabilities6}
	if meta.msgpack != nil || meta.json != nil {
		req.ProviderMeta = dv6(meta)
	}
	resp, err := c.rpc.ReadDataSource(ctx, req)
	if err != nil {
		return wireReadDataResponse{}, err
	}
	return wireReadDataResponse{state: fromDV6(resp.GetState()), deferred: resp.GetDeferred() != nil, diags: diags6(resp.GetDiagnostics())}, nil
}

func (c *client6) getFunctions(ctx context.Context) (map[string]provider.FunctionSpec, diag.Diagnostics, error) {
	resp, err := c.rpc.GetFunctions(ctx, &proto.GetFunctions_Request{})
	if err != nil {
		return nil, nil, err
	}
	ds := diags6(resp.GetDiagnostics())
	fns := make(map[string]provider.FunctionSpec, len(resp.GetFunctions()))
	for name, f := range resp.GetFunctions() {
		fn, err := function6(f)
		if err != nil {
			ds = ds.Append(diag.Errorf("Invalid provider function", "The definition of function %s is invalid: %s.", name, err))
			continue
		}
		fns[name] = fn
	}
	return fns, ds, nil
}

func (c *client6) callFunction(ctx context.Context, name string, args []dynamicValue) (dynamicValue, *provider.FunctionError, error) {
	req := &proto.CallFunction_Request{Name: name, Arguments: make([]*proto.DynamicValue, len(args))}
	for i, a := range args {
		req.Arguments[i] = dv6(a)
	}
	resp, err := c.rpc.CallFunction(ctx, req)
	if err != nil {
		return dynamicValue{}, nil, err
	}
	if fe := resp.GetError(); fe != nil {
		return dynamicValue{}, &provider.FunctionError{Text: fe.GetText(), Argument: fe.FunctionArgument}, nil
	}
	return fromDV6(resp.GetResult()), nil, nil
}

func (c *client6) stop(ctx context.Context) (string, error) {
	resp, err := c.rpc.StopProvider(ctx, &proto.StopProvider_Request{})
	return resp.GetError(), err
}

func dv6(v dynamicValue) *proto.DynamicValue {
	return &proto.DynamicValue{Msgpack: v.msgpack, Json: v.json}
}

func optDV6(v *dynamicValue) *proto.DynamicValue {
	if v == nil {
		return nil
	}
	return dv6(*v)
}

func fromDV6(v *proto.DynamicValue) dynamicValue {
	return dynamicValue{msgpack: v.GetMsgpack(), json: v.GetJson()}
}

func diags6(in []*proto.Diagnostic) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range in {
		out = append(out, newDiagnostic(d.GetSeverity() == proto.Diagnostic_WARNING, d.GetSummary(), d.GetDetail(), path6(d.GetAttribute())))
	}
	return out
}

func path6(ap *proto.AttributePath) cty.Path {
	var path cty.Path
	for _, step := range ap.GetSteps() {
		switch sel := step.GetSelector().(type) {
		case *proto.AttributePath_Step_AttributeName:
			path = append(path, cty.GetAttrStep{Name: sel.AttributeName})
		case *proto.AttributePath_Step_ElementKeyString:
			path = append(path, cty.IndexStep{Key: cty.StringVal(sel.ElementKeyString)})
		case *proto.AttributePath_Step_ElementKeyInt:
			path = append(path, cty.IndexStep{Key: cty.NumberIntVal(sel.ElementKeyInt)})
		}
	}
	return path
}

func schema6(s *proto.Schema) (provider.Schema, error) {
	b, err := block6(s.GetBlock())
	if err != nil {
		return provider.Schema{}, err
	}
	return provider.Schema{Version: s.GetVersion(), Block: b}, nil
}

// block6 converts a block; a missing block is an empty one.
func block6(b *proto.Schema_Block) (*provider.Block, error) {
	out := &provider.Block{
		Attributes:      make(map[string]*provider.Attribute, len(b.GetAttributes())),
		BlockTypes:      make(map[string]*provider.NestedBlock, len(b.GetBlockTypes())),
		Description:     b.GetDescription(),
		Deprecated:      b.GetDeprecated(),
		DescriptionKind: stringKind(int32(b.GetDescriptionKind())),
		// Protocol 6.10; a nil block has none.
		DeprecationMessage: b.GetDeprecationMessage(),
	}
	for _, a := range b.GetAttributes() {
		attr, err := attribute6(a)
		if err != nil {
			return nil, err
		}
		out.Attributes[a.GetName()] = attr
	}
	for _, nb := range b.GetBlockTypes() {
		nesting, err := nestingMode(int32(nb.GetNesting()), true)
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", nb.GetTypeName(), err)
		}
		inner, err := block6(nb.GetBlock())
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", nb.GetTypeName(), err)
		}
		out.BlockTypes[nb.GetTypeName()] = &provider.NestedBlock{
			Block: *inner, Nesting: nesting, MinItems: int(nb.GetMinItems()), MaxItems: int(nb.GetMaxItems()),
		}
	}
	return out, nil
}

// attribute6 converts an attribute with either a type or a nested type.
func attribute6(a *proto.Schema_Attribute) (*provider.Attribute, error) {
	out := &provider.Attribute{
		Required:        a.GetRequired(),
		Optional:        a.GetOptional(),
		Computed:        a.GetComputed(),
		Sensitive:       a.GetSensitive(),
		Description:     a.GetDescription(),
		Deprecated:      a.GetDeprecated(),
		DescriptionKind: stringKind(int32(a.GetDescriptionKind())),
		// Protocol 6.10.
		DeprecationMessage: a.GetDeprecationMessage(),
		WriteOnly:          a.GetWriteOnly(),
	}
	if nt := a.GetNestedType(); nt != nil {
		if len(a.GetType()) > 0 {
			return nil, fmt.Errorf("attribute %q has both a type and a nested type", a.GetName())
		}
		nesting, err := nestingMode(int32(nt.GetNesting()), false)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", a.GetName(), err)
		}
		obj := &provider.NestedObject{Nesting: nesting, Attributes: make(map[string]*provider.Attribute, len(nt.GetAttributes()))}
		for _, inner := range nt.GetAttributes() {
			ia, err := attribute6(inner)
			if err != nil {
				return nil, fmt.Errorf("attribute %q: %w", a.GetName(), err)
			}
			obj.Attributes[inner.GetName()] = ia
		}
		out.NestedType = obj
		return out, nil
	}
	ty, err := attributeType(a.GetName(), a.GetType())
	if err != nil {
		return nil, err
	}
	out.Type = ty
	return out, nil
}

func function6(f *proto.Function) (provider.FunctionSpec, error) {
	out := provider.FunctionSpec{Summary: f.GetSummary(), Description: f.GetDescription(), DeprecationMessage: f.GetDeprecationMessage()}
	for _, p := range f.GetParameters() {
		param, err := parameter6(p)
		if err != nil {
			return provider.FunctionSpec{}, err
		}
		out.Parameters = append(out.Parameters, param)
	}
	if vp := f.GetVariadicParameter(); vp != nil {
		param, err := parameter6(vp)
		if err != nil {
			return provider.FunctionSpec{}, err
		}
		out.VariadicParameter = &param
	}
	ty, err := attributeType("return", f.GetReturn().GetType())
	if err != nil {
		return provider.FunctionSpec{}, err
	}
	out.ReturnType = ty
	return out, nil
}

func parameter6(p *proto.Function_Parameter) (provider.FunctionParameter, error) {
	ty, err := attributeType(p.GetName(), p.GetType())
	if err != nil {
		return provider.FunctionParameter{}, err
	}
	return provider.FunctionParameter{Name: p.GetName(), Type: ty, AllowNullValue: p.GetAllowNullValue(),
		AllowUnknownValues: p.GetAllowUnknownValues(), Description: p.GetDescription()}, nil
}
