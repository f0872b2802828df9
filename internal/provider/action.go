package provider

import (
	"context"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/zclconf/go-cty/cty"
)

// Actions is what the engine calls on a provider that offers actions
// (`action` blocks, Terraform 1.14): operations that are not resources,
// run when a resource's action_trigger fires or when invoked. Plugin
// providers implement it; a provider that does not has no action types.
type Actions interface {
	// ValidateActionConfig checks one action's configuration (unknowns
	// allowed).
	ValidateActionConfig(ctx context.Context, typeName string, config cty.Value) diag.Diagnostics
	// PlanAction checks an action's configuration for a plan that will
	// invoke it.
	PlanAction(ctx context.Context, req ActionRequest) diag.Diagnostics
	// InvokeAction runs an action, calling progress with each message the
	// provider streams while it runs; the diagnostics are those it ended
	// with.
	InvokeAction(ctx context.Context, req ActionRequest, progress func(message string)) diag.Diagnostics
}

// ActionRequest names an action type and carries its configuration, a
// value of the action schema's type (null when the action block has no
// config block).
type ActionRequest struct {
	TypeName string
	Config   cty.Value
}

// AsActions returns p's action calls, looking through the wrappers rig
// puts around providers; false for a provider without them.
func AsActions(p Interface) (Actions, bool) {
	for p != nil {
		if ap, ok := p.(Actions); ok {
			return ap, true
		}
		u, ok := p.(Unwrapper)
		if !ok {
			return nil, false
		}
		p = u.Unwrap()
	}
	return nil, false
}
