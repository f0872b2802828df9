package plugin

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	proto "github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
	"github.com/zclconf/go-cty/cty"
)

// client5 speaks protocol 5 (PrepareProviderConfig, Configure, Stop, no
// nested attribute types).
type client5 struct {
	rpc proto.ProviderClient
}

var _ protocol = (*client5)(nil)

// capabilities5 is what rig tells protocol-5 providers it supports.
var capabilities5 = &proto.ClientCapabilities{DeferralAllowed: false, WriteOnlyAttributesAllowed: true}

func (c *client5) version() int { return 5 }

func (c *client5) getSchema(ctx context.Context) (wireSchemas, error) {
	resp, err := c.rpc.GetSchema(ctx, &proto.GetProviderSchema_Request{})
	if err != nil {
		return wireSchemas{}, err
	}
	ws := wireSchemas{diags: diags5(resp.GetDiagnostics())}
	invalid := func(what string, err error) {
		ws.diags = ws.diags.Append(diag.Errorf("Invalid provider schema", "The schema of %s is invalid: %s.", what, err))
	}
	var err2 error
	if ws.schemas.Provider, err2 = schema5(resp.GetProvider()); err2 != nil {
		invalid("the provider configuration", err2)
	}
	if resp.GetProviderMeta().GetBlock() != nil {
		meta, err := schema5(resp.GetProviderMeta())
		if err != nil {
			invalid("provider_meta", err)
		} else {
			ws.providerMeta = &meta
		}
	}
	convertNamed(&ws, resp, schema5, function5, func(s *proto.ActionSchema) (provider.Schema, error) { return schema5(s.GetSchema()) }, invalid)
	caps := resp.GetServerCapabilities()
	ws.capabilities = serverCapabilities{
		planDestroy:               caps.GetPlanDestroy(),
		getProviderSchemaOptional: caps.GetGetProviderSchemaOptional(),
		moveResourceState:         caps.GetMoveResourceState(),
	}
	return ws, nil
}

func (c *client5) validateProviderConfig(ctx context.Context, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.PrepareProviderConfig(ctx, &proto.PrepareProviderConfig_Request{Config: dv5(config)})
	return diags5(resp.GetDiagnostics()), err
}

func (c *client5) validateResourceConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.ValidateResourceTypeConfig(ctx, &proto.ValidateResourceTypeConfig_Request{
		TypeName: typeName, Config: dv5(config), ClientCapabilities: capabilities5})
	return diags5(resp.GetDiagnostics()), err
}

func (c *client5) validateDataResourceConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.ValidateDataSourceConfig(ctx, &proto.ValidateDataSourceConfig_Request{TypeName: typeName, Config: dv5(config)})
	return diags5(resp.GetDiagnostics()), err
}

func (c *client5) configure(ctx context.Context, terraformVersion string, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.Configure(ctx, &proto.Configure_Request{
		TerraformVersion: terraformVersion, Config: dv5(config), ClientCapabilities: capabilities5})
	return diags5(resp.GetDiagnostics()), err
}

func (c *client5) upgradeResourceState(ctx context.Context, req wireUpgradeRequest) (dynamicValue, diag.Diagnostics, error) {
	resp, err := c.rpc.UpgradeResourceState(ctx, &proto.UpgradeResourceState_Request{
		TypeName: req.typeName,
		Version:  req.version,
		RawState: &proto.RawState{Json: req.rawJSON, Flatmap: req.flatmap},
	})
	if err != nil {
		return dynamicValue{}, nil, err
	}
	return fromDV5(resp.GetUpgradedState()), diags5(resp.GetDiagnostics()), nil
}

func (c *client5) readResource(ctx context.Context, req wireReadRequest) (wireReadResponse, error) {
	resp, err := c.rpc.ReadResource(ctx, &proto.ReadResource_Request{
		TypeName:           req.typeName,
		CurrentState:       dv5(req.currentState),
		Private:            req.private,
		ProviderMeta:       optDV5(req.providerMeta),
		ClientCapabilities: capabilities5,
		CurrentIdentity:    identityMsg5(req.currentIdentity),
	})
	if err != nil {
		return wireReadResponse{}, err
	}
	return wireReadResponse{
		newState: fromDV5(resp.GetNewState()),
		private:  resp.GetPrivate(),
		deferred: resp.GetDeferred() != nil,
		diags:    diags5(resp.GetDiagnostics()),

		newIdentity: identity5(resp.GetNewIdentity()),
	}, nil
}

func (c *client5) planResourceChange(ctx context.Context, req wirePlanRequest) (wirePlanResponse, error) {
	resp, err := c.rpc.PlanResourceChange(ctx, &proto.PlanResourceChange_Request{
		TypeName:           req.typeName,
		PriorState:         dv5(req.priorState),
		ProposedNewState:   dv5(req.proposedNewState),
		Config:             dv5(req.config),
		PriorPrivate:       req.priorPrivate,
		ProviderMeta:       optDV5(req.providerMeta),
		ClientCapabilities: capabilities5,
		PriorIdentity:      identityMsg5(req.priorIdentity),
	})
	if err != nil {
		return wirePlanResponse{}, err
	}
	out := wirePlanResponse{
		plannedState:     fromDV5(resp.GetPlannedState()),
		plannedPrivate:   resp.GetPlannedPrivate(),
		legacyTypeSystem: resp.GetLegacyTypeSystem(),
		deferred:         resp.GetDeferred() != nil,
		diags:            diags5(resp.GetDiagnostics()),
		plannedIdentity:  identity5(resp.GetPlannedIdentity()),
	}
	for _, ap := range resp.GetRequiresReplace() {
		out.requiresReplace = append(out.requiresReplace, path5(ap))
	}
	return out, nil
}

func (c *client5) applyResourceChange(ctx context.Context, req wireApplyRequest) (wireApplyResponse, error) {
	resp, err := c.rpc.ApplyResourceChange(ctx, &proto.ApplyResourceChange_Request{
		TypeName:       req.typeName,
		PriorState:     dv5(req.priorState),
		PlannedState:   dv5(req.plannedState),
		Config:         dv5(req.config),
		PlannedPrivate: req.plannedPrivate,
		ProviderMeta:   optDV5(req.providerMeta),

		PlannedIdentity: identityMsg5(req.plannedIdentity),
	})
	if err != nil {
		return wireApplyResponse{}, err
	}
	return wireApplyResponse{
		newState:         fromDV5(resp.GetNewState()),
		private:          resp.GetPrivate(),
		legacyTypeSystem: resp.GetLegacyTypeSystem(),
		diags:            diags5(resp.GetDiagnostics()),
		newIdentity:      identity5(resp.GetNewIdentity()),
	}, nil
}

func (c *client5) importResourceState(ctx context.Context, typeName, id string, identity *dynamicValue) (wireImportResponse, error) {
	resp, err := c.rpc.ImportResourceState(ctx, &proto.ImportResourceState_Request{
		TypeName: typeName, Id: id, ClientCapabilities: capabilities5, Identity: identityMsg5(identity)})
	if err != nil {
		return wireImportResponse{}, err
	}
	out := wireImportResponse{deferred: resp.GetDeferred() != nil, diags: diags5(resp.GetDiagnostics())}
	for _, imp := range resp.GetImportedResources() {
		out.imported = append(out.imported, wireImported{typeName: imp.GetTypeName(), state: fromDV5(imp.GetState()), private: imp.GetPrivate(), identity: identity5(imp.GetIdentity())})
	}
	return out, nil
}

func (c *client5) readDataSource(ctx context.Context, typeName string, config, meta dynamicValue) (wireReadDataResponse, error) {
	req := &proto.ReadDataSource_Request{TypeName: typeName, Config: dv5(config), ClientCapabilities: capabilities5}
	if meta.msgpack != nil || meta.json != nil {
		req.ProviderMeta = dv5(meta)
	}
	resp, err := c.rpc.ReadDataSource(ctx, req)
	if err != nil {
		return wireReadDataResponse{}, err
	}
	return wireReadDataResponse{state: fromDV5(resp.GetState()), deferred: resp.GetDeferred() != nil, diags: diags5(resp.GetDiagnostics())}, nil
}

func (c *client5) getFunctions(ctx context.Context) (map[string]provider.FunctionSpec, diag.Diagnostics, error) {
	resp, err := c.rpc.GetFunctions(ctx, &proto.GetFunctions_Request{})
	if err != nil {
		return nil, nil, err
	}
	ds := diags5(resp.GetDiagnostics())
	fns := make(map[string]provider.FunctionSpec, len(resp.GetFunctions()))
	for name, f := range resp.GetFunctions() {
		fn, err := function5(f)
		if err != nil {
			ds = ds.Append(diag.Errorf("Invalid provider function", "The definition of function %s is invalid: %s.", name, err))
			continue
		}
		fns[name] = fn
	}
	return fns, ds, nil
}

func (c *client5) callFunction(ctx context.Context, name string, args []dynamicValue) (dynamicValue, *provider.FunctionError, error) {
	req := &proto.CallFunction_Request{Name: name, Arguments: make([]*proto.DynamicValue, len(args))}
	for i, a := range args {
		req.Arguments[i] = dv5(a)
	}
	resp, err := c.rpc.CallFunction(ctx, req)
	if err != nil {
		return dynamicValue{}, nil, err
	}
	if fe := resp.GetError(); fe != nil {
		return dynamicValue{}, &provider.FunctionError{Text: fe.GetText(), Argument: fe.FunctionArgument}, nil
	}
	return fromDV5(resp.GetResult()), nil, nil
}

func (c *client5) stop(ctx context.Context) (string, error) {
	resp, err := c.rpc.Stop(ctx, &proto.Stop_Request{})
	return resp.GetError(), err
}

func dv5(v dynamicValue) *proto.DynamicValue {
	return &proto.DynamicValue{Msgpack: v.msgpack, Json: v.json}
}

func optDV5(v *dynamicValue) *proto.DynamicValue {
	if v == nil {
		return nil
	}
	return dv5(*v)
}

func fromDV5(v *proto.DynamicValue) dynamicValue {
	return dynamicValue{msgpack: v.GetMsgpack(), json: v.GetJson()}
}

func diags5(in []*proto.Diagnostic) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range in {
		out = append(out, newDiagnostic(d.GetSeverity() == proto.Diagnostic_WARNING, d.GetSummary(), d.GetDetail(), path5(d.GetAttribute())))
	}
	return out
}

func path5(ap *proto.AttributePath) cty.Path {
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

func schema5(s *proto.Schema) (provider.Schema, error) {
	b, err := block5(s.GetBlock())
	if err != nil {
		return provider.Schema{}, err
	}
	return provider.Schema{Version: s.GetVersion(), Block: b}, nil
}

// block5 converts a block; a missing block is an empty one.
func block5(b *proto.Schema_Block) (*provider.Block, error) {
	out := &provider.Block{
		Attributes:      make(map[string]*provider.Attribute, len(b.GetAttributes())),
		BlockTypes:      make(map[string]*provider.NestedBlock, len(b.GetBlockTypes())),
		Description:     b.GetDescription(),
		Deprecated:      b.GetDeprecated(),
		DescriptionKind: stringKind(int32(b.GetDescriptionKind())),
		// Protocol 5.10; a nil block has none.
		DeprecationMessage: b.GetDeprecationMessage(),
	}
	for _, a := range b.GetAttributes() {
		ty, err := attributeType(a.GetName(), a.GetType())
		if err != nil {
			return nil, err
		}
		out.Attributes[a.GetName()] = &provider.Attribute{
			Type:            ty,
			Required:        a.GetRequired(),
			Optional:        a.GetOptional(),
			Computed:        a.GetComputed(),
			Sensitive:       a.GetSensitive(),
			Description:     a.GetDescription(),
			Deprecated:      a.GetDeprecated(),
			DescriptionKind: stringKind(int32(a.GetDescriptionKind())),
			// Protocol 5.10.
			DeprecationMessage: a.GetDeprecationMessage(),
			WriteOnly:          a.GetWriteOnly(),
		}
	}
	for _, nb := range b.GetBlockTypes() {
		nesting, err := nestingMode(int32(nb.GetNesting()), true)
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", nb.GetTypeName(), err)
		}
		inner, err := block5(nb.GetBlock())
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", nb.GetTypeName(), err)
		}
		out.BlockTypes[nb.GetTypeName()] = &provider.NestedBlock{
			Block: *inner, Nesting: nesting, MinItems: int(nb.GetMinItems()), MaxItems: int(nb.GetMaxItems()),
		}
	}
	return out, nil
}

func function5(f *proto.Function) (provider.FunctionSpec, error) {
	out := provider.FunctionSpec{Summary: f.GetSummary(), Description: f.GetDescription(), DeprecationMessage: f.GetDeprecationMessage()}
	for _, p := range f.GetParameters() {
		param, err := parameter5(p)
		if err != nil {
			return provider.FunctionSpec{}, err
		}
		out.Parameters = append(out.Parameters, param)
	}
	if vp := f.GetVariadicParameter(); vp != nil {
		param, err := parameter5(vp)
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

func parameter5(p *proto.Function_Parameter) (provider.FunctionParameter, error) {
	ty, err := attributeType(p.GetName(), p.GetType())
	if err != nil {
		return provider.FunctionParameter{}, err
	}
	return provider.FunctionParameter{Name: p.GetName(), Type: ty, AllowNullValue: p.GetAllowNullValue(),
		AllowUnknownValues: p.GetAllowUnknownValues(), Description: p.GetDescription()}, nil
}
