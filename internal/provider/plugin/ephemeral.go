package plugin

import (
	"context"
	"time"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// The ephemeral resource calls of protocols 5.7 and 6.7 and later. A
// provider that predates them answers Unimplemented, which the caller
// reports.

var _ provider.EphemeralResources = (*Provider)(nil)

// wireEphemeralResponse is an Open or Renew response in rig's types.
type wireEphemeralResponse struct {
	result   dynamicValue
	private  []byte
	renewAt  time.Time
	deferred bool
	diags    diag.Diagnostics
}

// renewTime returns the time a renew_at field gives; zero when absent.
func renewTime(ts *timestamppb.Timestamp) time.Time {
	if ts == nil {
		return time.Time{}
	}
	return ts.AsTime()
}

// ephemeralType returns the implied type of an ephemeral resource type.
func (p *Provider) ephemeralType(ctx context.Context, typeName string) (cty.Type, diag.Diagnostics) {
	ws, ds := p.loadSchema(ctx)
	if ds.HasErrors() {
		return cty.NilType, ds
	}
	s, ok := ws.schemas.EphemeralResources[typeName]
	if !ok {
		return cty.NilType, diag.Diagnostics{diag.Errorf("Invalid ephemeral resource type",
			"The provider %s does not support ephemeral resource type %q.", p.meta, typeName)}
	}
	return s.Block.ImpliedType(), nil
}

// ValidateEphemeralResourceConfig checks an ephemeral resource's configuration.
func (p *Provider) ValidateEphemeralResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	ty, ds := p.ephemeralType(ctx, typeName)
	if ds.HasErrors() {
		return ds
	}
	dv, err := encodeValue(config, ty)
	if err != nil {
		return diag.Diagnostics{p.encodeFailed(typeName+" configuration", err)}
	}
	ds, err = p.proto.validateEphemeralResourceConfig(ctx, typeName, dv)
	if err != nil {
		return diag.Diagnostics{p.callFailed("ValidateEphemeralResourceConfig", err)}
	}
	return ds
}

// OpenEphemeralResource opens an ephemeral resource.
func (p *Provider) OpenEphemeralResource(ctx context.Context, req provider.OpenEphemeralRequest) provider.OpenEphemeralResponse {
	ty, ds := p.ephemeralType(ctx, req.TypeName)
	if ds.HasErrors() {
		return provider.OpenEphemeralResponse{Diagnostics: ds}
	}
	dv, err := encodeValue(req.Config, ty)
	if err != nil {
		return provider.OpenEphemeralResponse{Diagnostics: diag.Diagnostics{p.encodeFailed(req.TypeName+" configuration", err)}}
	}
	resp, err := p.proto.openEphemeralResource(ctx, req.TypeName, dv)
	if err != nil {
		return provider.OpenEphemeralResponse{Diagnostics: diag.Diagnostics{p.callFailed("OpenEphemeralResource", err)}}
	}
	out := provider.OpenEphemeralResponse{Private: resp.private, RenewAt: resp.renewAt, Diagnostics: resp.diags}
	if resp.deferred {
		out.Diagnostics = out.Diagnostics.Append(p.deferred("OpenEphemeralResource"))
	}
	if out.Result, err = decodeValue(resp.result, ty); err != nil {
		out.Result = cty.NullVal(ty)
		out.Diagnostics = out.Diagnostics.Append(p.decodeFailed("OpenEphemeralResource", err))
	}
	return out
}

// RenewEphemeralResource renews an open ephemeral resource.
func (p *Provider) RenewEphemeralResource(ctx context.Context, req provider.RenewEphemeralRequest) provider.RenewEphemeralResponse {
	resp, err := p.proto.renewEphemeralResource(ctx, req.TypeName, req.Private)
	if err != nil {
		return provider.RenewEphemeralResponse{Diagnostics: diag.Diagnostics{p.callFailed("RenewEphemeralResource", err)}}
	}
	return provider.RenewEphemeralResponse{Private: resp.private, RenewAt: resp.renewAt, Diagnostics: resp.diags}
}

// CloseEphemeralResource closes an open ephemeral resource.
func (p *Provider) CloseEphemeralResource(ctx context.Context, req provider.CloseEphemeralRequest) diag.Diagnostics {
	ds, err := p.proto.closeEphemeralResource(ctx, req.TypeName, req.Private)
	if err != nil {
		return diag.Diagnostics{p.callFailed("CloseEphemeralResource", err)}
	}
	return ds
}
