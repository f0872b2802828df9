package testrun

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// A pooled provider passes the ephemeral resource calls to the instance
// it is bound to, when that instance offers them.

var _ provider.EphemeralResources = (*pooledProvider)(nil)

// ephemeralTarget returns the bound instance's ephemeral resource calls.
func (pp *pooledProvider) ephemeralTarget(ctx context.Context) (provider.EphemeralResources, diag.Diagnostics) {
	t, ds := pp.target(ctx)
	if t == nil {
		return nil, ds
	}
	ep, ok := provider.AsEphemeral(t)
	if !ok {
		return nil, diag.Diagnostics{diag.Errorf("Ephemeral resources not supported", "The provider %s does not support ephemeral resources.", pp.addr.ForDisplay())}
	}
	return ep, nil
}

func (pp *pooledProvider) ValidateEphemeralResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	ep, ds := pp.ephemeralTarget(ctx)
	if ep == nil {
		return ds
	}
	return ep.ValidateEphemeralResourceConfig(ctx, typeName, config)
}

func (pp *pooledProvider) OpenEphemeralResource(ctx context.Context, req provider.OpenEphemeralRequest) provider.OpenEphemeralResponse {
	ep, ds := pp.ephemeralTarget(ctx)
	if ep == nil {
		return provider.OpenEphemeralResponse{Diagnostics: ds}
	}
	return ep.OpenEphemeralResource(ctx, req)
}

func (pp *pooledProvider) RenewEphemeralResource(ctx context.Context, req provider.RenewEphemeralRequest) provider.RenewEphemeralResponse {
	ep, ds := pp.ephemeralTarget(ctx)
	if ep == nil {
		return provider.RenewEphemeralResponse{Diagnostics: ds}
	}
	return ep.RenewEphemeralResource(ctx, req)
}

func (pp *pooledProvider) CloseEphemeralResource(ctx context.Context, req provider.CloseEphemeralRequest) diag.Diagnostics {
	ep, ds := pp.ephemeralTarget(ctx)
	if ep == nil {
		return ds
	}
	return ep.CloseEphemeralResource(ctx, req)
}

// Unwrap implements provider.Unwrapper: an overriding provider passes the
// ephemeral resource calls through.
func (p *overridingProvider) Unwrap() provider.Interface { return p.Interface }
