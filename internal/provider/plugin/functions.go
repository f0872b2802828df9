package plugin

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// GetFunctions returns the provider-defined functions, from the provider's
// cached schema when it lists any, else from the GetFunctions call (a
// provider too old to implement it has none). The returned map is shared:
// callers must not modify it.
func (p *Provider) GetFunctions(ctx context.Context) (map[string]provider.FunctionSpec, diag.Diagnostics) {
	ws, ds := p.loadSchema(ctx)
	if ds.HasErrors() {
		return nil, ds
	}
	if len(ws.functions) > 0 {
		return ws.functions, nil
	}
	fns, more, err := p.proto.getFunctions(ctx)
	if status.Code(err) == codes.Unimplemented {
		return nil, nil
	}
	if err != nil {
		return nil, diag.Diagnostics{p.callFailed("GetFunctions", err)}
	}
	return fns, more
}

// CallFunction calls the provider-defined function name with args, which
// must conform to its parameters (the variadic ones last). A call the
// provider rejects returns a *provider.FunctionError; other failures wrap
// the cause.
func (p *Provider) CallFunction(ctx context.Context, name string, args []cty.Value) (cty.Value, error) {
	fns, ds := p.GetFunctions(ctx)
	if ds.HasErrors() {
		return cty.NilVal, fmt.Errorf("call provider function %s: %w", name, ds.Err())
	}
	fn, ok := fns[name]
	if !ok {
		return cty.NilVal, fmt.Errorf("call provider function %s: provider %s has no such function", name, p.meta.Provider.ForDisplay())
	}
	if len(args) < len(fn.Parameters) || (fn.VariadicParameter == nil && len(args) > len(fn.Parameters)) {
		return cty.NilVal, fmt.Errorf("call provider function %s: %d arguments given, %d expected", name, len(args), len(fn.Parameters))
	}
	wireArgs := make([]dynamicValue, len(args))
	for i, arg := range args {
		param := fn.VariadicParameter
		if i < len(fn.Parameters) {
			param = &fn.Parameters[i]
		}
		dv, err := encodeValue(arg, param.Type)
		if err != nil {
			return cty.NilVal, fmt.Errorf("call provider function %s: argument %d: %w", name, i, err)
		}
		wireArgs[i] = dv
	}
	result, ferr, err := p.proto.callFunction(ctx, name, wireArgs)
	if err != nil {
		return cty.NilVal, fmt.Errorf("call provider function %s: %w", name, err)
	}
	if ferr != nil {
		return cty.NilVal, ferr
	}
	v, err := decodeValue(result, fn.ReturnType)
	if err != nil {
		return cty.NilVal, fmt.Errorf("call provider function %s: result: %w", name, err)
	}
	return v, nil
}
