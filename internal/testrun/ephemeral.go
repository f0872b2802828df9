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

// forwardEphemeral is forward for the ephemeral resource calls, which an
// instance without them fails.
func forwardEphemeral[R any](ctx context.Context, pp *pooledProvider, f func(provider.EphemeralResources) R, fail func(diag.Diagnostics) R) R {
	return forward(ctx, pp, func(t provider.Interface) R {
		ep, ok := provider.AsEphemeral(t)
		if !ok {
			return fail(diag.Diagnostics{diag.Errorf("Ephemeral resources not supported", "The provider %s does not support ephemeral resources.", pp.addr.ForDisplay())})
		}
		return f(ep)
	}, fail)
}

func (pp *pooledProvider) ValidateEphemeralResourceConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	return forwardEphemeral(ctx, pp, func(ep provider.EphemeralResources) diag.Diagnostics {
		return ep.ValidateEphemeralResourceConfig(ctx, typeName, config)
	}, diagsOnly)
}

func (pp *pooledProvider) OpenEphemeralResource(ctx context.Context, req provider.OpenEphemeralRequest) provider.OpenEphemeralResponse {
	return forwardEphemeral(ctx, pp, func(ep provider.EphemeralResources) provider.OpenEphemeralResponse {
		return ep.OpenEphemeralResource(ctx, req)
	}, func(ds diag.Diagnostics) provider.OpenEphemeralResponse {
		return provider.OpenEphemeralResponse{Diagnostics: ds}
	})
}

func (pp *pooledProvider) RenewEphemeralResource(ctx context.Context, req provider.RenewEphemeralRequest) provider.RenewEphemeralResponse {
	return forwardEphemeral(ctx, pp, func(ep provider.EphemeralResources) provider.RenewEphemeralResponse {
		return ep.RenewEphemeralResource(ctx, req)
	}, func(ds diag.Diagnostics) provider.RenewEphemeralResponse {
		return provider.RenewEphemeralResponse{Diagnostics: ds}
	})
}

func (pp *pooledProvider) CloseEphemeralResource(ctx context.Context, req provider.CloseEphemeralRequest) diag.Diagnostics {
	return forwardEphemeral(ctx, pp, func(ep provider.EphemeralResources) diag.Diagnostics {
		return ep.CloseEphemeralResource(ctx, req)
	}, diagsOnly)
}

// Unwrap implements provider.Unwrapper: what an overriding provider does
// not answer itself, the provider it wraps does.
func (p *overridingProvider) Unwrap() provider.Interface { return p.Interface }
