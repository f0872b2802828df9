package plugin

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	proto "github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
)

// The ephemeral resource calls of protocol 6 (6.7 and later).

func (c *client6) validateEphemeralResourceConfig(ctx context.Context, typeName string, config dynamicValue) (diag.Diagnostics, error) {
	resp, err := c.rpc.ValidateEphemeralResourceConfig(ctx, &proto.ValidateEphemeralResourceConfig_Request{TypeName: typeName, Config: dv6(config)})
	return diags6(resp.GetDiagnostics()), err
}

func (c *client6) openEphemeralResource(ctx context.Context, typeName string, config dynamicValue) (wireEphemeralResponse, error) {
	resp, err := c.rpc.OpenEphemeralResource(ctx, &proto.OpenEphemeralResource_Request{TypeName: typeName, Config: dv6(config), ClientCapabilities: capabilities6})
	if err != nil {
		return wireEphemeralResponse{}, err
	}
	return wireEphemeralResponse{result: fromDV6(resp.GetResult()), private: resp.GetPrivate(), renewAt: renewTime(resp.GetRenewAt()),
		deferred: resp.GetDeferred() != nil, diags: diags6(resp.GetDiagnostics())}, nil
}

func (c *client6) renewEphemeralResource(ctx context.Context, typeName string, private []byte) (wireEphemeralResponse, error) {
	resp, err := c.rpc.RenewEphemeralResource(ctx, &proto.RenewEphemeralResource_Request{TypeName: typeName, Private: private})
	if err != nil {
		return wireEphemeralResponse{}, err
	}
	return wireEphemeralResponse{private: resp.GetPrivate(), renewAt: renewTime(resp.GetRenewAt()), diags: diags6(resp.GetDiagnostics())}, nil
}

func (c *client6) closeEphemeralResource(ctx context.Context, typeName string, private []byte) (diag.Diagnostics, error) {
	resp, err := c.rpc.CloseEphemeralResource(ctx, &proto.CloseEphemeralResource_Request{TypeName: typeName, Private: private})
	return diags6(resp.GetDiagnostics()), err
}
