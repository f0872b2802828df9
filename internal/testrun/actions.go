package testrun

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// A pooled provider passes the action calls to the instance it is bound
// to, when that instance offers them.

var _ provider.Actions = (*pooledProvider)(nil)

// actionsTarget returns the bound instance's action calls.
func (pp *pooledProvider) actionsTarget(ctx context.Context) (provider.Actions, diag.Diagnostics) {
	t, ds := pp.target(ctx)
	if t == nil {
		return nil, ds
	}
	ap, ok := provider.AsActions(t)
	if !ok {
		return nil, diag.Diagnostics{diag.Errorf("Actions not supported", "The provider %s does not support actions.", pp.addr.ForDisplay())}
	}
	return ap, nil
}

func (pp *pooledProvider) ValidateActionConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	ap, ds := pp.actionsTarget(ctx)
	if ap == nil {
		return ds
	}
	return ap.ValidateActionConfig(ctx, typeName, config)
}

func (pp *pooledProvider) PlanAction(ctx context.Context, req provider.ActionRequest) diag.Diagnostics {
	ap, ds := pp.actionsTarget(ctx)
	if ap == nil {
		return ds
	}
	return ap.PlanAction(ctx, req)
}

func (pp *pooledProvider) InvokeAction(ctx context.Context, req provider.ActionRequest, progress func(string)) diag.Diagnostics {
	ap, ds := pp.actionsTarget(ctx)
	if ap == nil {
		return ds
	}
	return ap.InvokeAction(ctx, req, progress)
}
