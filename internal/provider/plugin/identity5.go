package plugin

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	proto "github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
)

// The resource identity and list resource calls of protocol 5 (5.9 and
// later).

func (c *client5) getIdentitySchemas(ctx context.Context) (map[string]provider.Schema, diag.Diagnostics, error) {
	resp, err := c.rpc.GetResourceIdentitySchemas(ctx, &proto.GetResourceIdentitySchemas_Request{})
	if err != nil {
		return nil, nil, err
	}
	ds := diags5(resp.GetDiagnostics())
	out := make(map[string]provider.Schema, len(resp.GetIdentitySchemas()))
	for name, s := range resp.GetIdentitySchemas() {
		b := &provider.Block{Attributes: map[string]*provider.Attribute{}}
		for _, a := range s.GetIdentityAttributes() {
			ty, err := attributeType(a.GetName(), a.GetType())
			if err != nil {
				ds = ds.Append(diag.Errorf("Invalid provider schema", "The identity schema of resource type %s is invalid: %s.", name, err))
				continue
			}
			b.Attributes[a.GetName()] = &provider.Attribute{Type: ty, Required: a.GetRequiredForImport(), Optional: a.GetOptionalForImport(), Description: a.GetDescription()}
		}
		out[name] = provider.Schema{Version: s.GetVersion(), Block: b}
	}
	return out, ds, nil
}

func (c *client5) upgradeResourceIdentity(ctx context.Context, typeName string, version int64, rawJSON []byte) (dynamicValue, diag.Diagnostics, error) {
	resp, err := c.rpc.UpgradeResourceIdentity(ctx, &proto.UpgradeResourceIdentity_Request{
		TypeName: typeName, Version: version, RawIdentity: &proto.RawState{Json: rawJSON}})
	if err != nil {
		return dynamicValue{}, nil, err
	}
	return fromDV5(resp.GetUpgradedIdentity().GetIdentityData()), diags5(resp.GetDiagnostics()), nil
}

func (c *client5) listResource(ctx context.Context, req wireListRequest, found func(wireListed)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.rpc.ListResource(ctx, &proto.ListResource_Request{
		TypeName: req.typeName, Config: dv5(req.config), IncludeResourceObject: req.includeResource, Limit: req.limit})
	if err != nil {
		return err
	}
	return receiveAll(stream.Recv, func(ev *proto.ListResource_Event) {
		found(wireListed{
			identity:    identity5(ev.GetIdentity()),
			displayName: ev.GetDisplayName(),
			resource:    optFromDV5(ev.GetResourceObject()),
			diags:       diags5(ev.GetDiagnostic()),
		})
	})
}

func (c *client5) validateListResourceConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.ValidateListResourceConfig(ctx, &proto.ValidateListResourceConfig_Request{TypeName: typeName, Config: dv5(config)})
	return diags5(resp.GetDiagnostics()), err
}

// identity5 returns the value an identity message carries; nil for none.
func identity5(id *proto.ResourceIdentityData) *dynamicValue {
	dv := id.GetIdentityData()
	return identityData(dv.GetMsgpack(), dv.GetJson(), dv != nil)
}

// identityMsg5 is the identity message of v; nil for none.
func identityMsg5(v *dynamicValue) *proto.ResourceIdentityData {
	if v == nil {
		return nil
	}
	return &proto.ResourceIdentityData{IdentityData: dv5(*v)}
}

// optFromDV5 is fromDV5 for an optional value; nil when absent.
func optFromDV5(v *proto.DynamicValue) *dynamicValue {
	if v == nil {
		return nil
	}
	dv := fromDV5(v)
	return &dv
}
