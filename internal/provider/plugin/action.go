package plugin

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// The action calls of protocols 5.10 and 6.10 and later (Terraform 1.14):
// ValidateActionConfig, PlanAction and InvokeAction, whose progress the
// provider streams.

var _ provider.Actions = (*Provider)(nil)

// actionEvent is one event of an InvokeAction stream: a progress message,
// or the end of the invocation with its diagnostics.
type actionEvent struct {
	progress  string
	completed bool
	diags     diag.Diagnostics
}

// actionConfig encodes an action's configuration in its schema's type.
func (p *Provider) actionConfig(ctx context.Context, typeName string, config cty.Value) (dynamicValue, diag.Diagnostics) {
	ws, ds := p.loadSchema(ctx)
	if ds.HasErrors() {
		return dynamicValue{}, ds
	}
	sch, ok := ws.schemas.Actions[typeName]
	if !ok || sch.Block == nil {
		return dynamicValue{}, diag.Diagnostics{diag.Errorf("Invalid action type",
			"The provider %s does not support action type %q.", p.meta, typeName)}
	}
	if config == cty.NilVal {
		config = cty.NullVal(sch.Block.ImpliedType())
	}
	dv, err := encodeValue(config, sch.Block.ImpliedType())
	if err != nil {
		return dynamicValue{}, diag.Diagnostics{p.encodeFailed(typeName+" action configuration", err)}
	}
	return dv, nil
}

// ValidateActionConfig implements provider.Actions.
func (p *Provider) ValidateActionConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics {
	dv, ds := p.actionConfig(ctx, typeName, config)
	if ds.HasErrors() {
		return ds
	}
	more, err := p.proto.validateActionConfig(ctx, typeName, dv)
	if err != nil {
		return diag.Diagnostics{p.callFailed("ValidateActionConfig", err)}
	}
	return more
}

// PlanAction implements provider.Actions. A deferral is an error: rig
// tells providers it does not support them.
func (p *Provider) PlanAction(ctx context.Context, req provider.ActionRequest) diag.Diagnostics {
	dv, ds := p.actionConfig(ctx, req.TypeName, req.Config)
	if ds.HasErrors() {
		return ds
	}
	more, deferred, err := p.proto.planAction(ctx, req.TypeName, dv)
	if err != nil {
		return diag.Diagnostics{p.callFailed("PlanAction", err)}
	}
	if deferred {
		more = more.Append(p.deferred("PlanAction"))
	}
	return more
}

// InvokeAction implements provider.Actions. A stream that ends without a
// completed event is an error: the provider did not say how the action
// ended.
func (p *Provider) InvokeAction(ctx context.Context, req provider.ActionRequest, progress func(string)) diag.Diagnostics {
	dv, ds := p.actionConfig(ctx, req.TypeName, req.Config)
	if ds.HasErrors() {
		return ds
	}
	var out diag.Diagnostics
	completed := false
	err := p.proto.invokeAction(ctx, req.TypeName, dv, func(ev actionEvent) {
		if ev.completed {
			completed = true
			out = out.Append(ev.diags)
			return
		}
		if progress != nil {
			progress(ev.progress)
		}
	})
	if err != nil {
		return out.Append(p.callFailed("InvokeAction", err))
	}
	if !completed && !out.HasErrors() {
		out = out.Append(diag.Errorf("Invalid provider response",
			"The provider %s ended the %s action's InvokeAction stream without saying whether it completed. This is a bug in the provider; please report it to its developers.", p.meta, req.TypeName))
	}
	return out
}
