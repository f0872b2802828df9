package plugin

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	proto "github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
)

// The resource identity and list resource calls of protocol 6 (6.9 and
// later).

func (c *client6) getIdentitySchemas(ctx context.Context) (map[string]provider.Schema, diag.Diagnostics, error) {
	resp, err := c.rpc.GetResourceIdentitySchemas(ctx, &proto.GetResourceIdentitySchemas_Request{})
	if err != nil {
		return nil, nil, err
	}
	ds := diags6(resp.GetDiagnostics())
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

func (c *client6) upgradeResourceIdentity(ctx context.Context, typeName string, version int64, rawJSON []byte) (dynamicValue, diag.Diagnostics, error) {
	resp, err := c.rpc.UpgradeResourceIdentity(ctx, &proto.UpgradeResourceIdentity_Request{
		TypeName: typeName, Version: version, RawIdentity: &proto.RawState{Json: rawJSON}})
	if err != nil {
		return dynamicValue{}, nil, err
	}
	return fromDV6(resp.GetUpgradedIdentity().GetIdentityData()), diags6(resp.GetDiagnostics()), nil
}

func (c *client6) listResource(ctx context.Context, req wireListRequest, found func(wireListed)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.rpc.ListResource(ctx, &proto.ListResource_Request{
		TypeName: req.typeName, Config: dv6(req.config), IncludeResourceObject: req.includeResource, Limit: req.limit})
	if err != nil {
		return err
	}
	return receiveAll(stream.Recv, func(ev *proto.ListResource_Event) {
		found(wireListed{
			identity:    identity6(ev.GetIdentity()),
			displayName: ev.GetDisplayName(),
			resource:    optFromDV6(ev.GetResourceObject()),
			diags:       diags6(ev.GetDiagnostic()),
		})
	})
}

func (c *client6) validateListResourceConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.ValidateListResourceConfig(ctx, &proto.ValidateListResourceConfig_Request{TypeName: typeName, Config: dv6(config)})
	return diags6(resp.GetDiagnostics()), err
}

// identity6 returns the value an identity message carries; nil for none.
func identity6(id *proto.ResourceIdentityData) *dynamicValue {
	dv := id.GetIdentityData()
	return identityData(dv.GetMsgpack(), dv.GetJson(), dv != nil)
}

// identityMsg6 is the identity message of v; nil for none.
func identityMsg6(v *dynamicValue) *proto.ResourceIdentityData {
	if v == nil {
		return nil
	}
	return &proto.ResourceIdentityData{IdentityData: dv6(*v)}
}

// optFromDV6 is fromDV6 for an optional value; nil when absent.
func optFromDV6(v *proto.DynamicValue) *dynamicValue {
	if v == nil {
		return nil
	}
	dv := fromDV6(v)
	return &dv
}
