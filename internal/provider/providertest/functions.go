package providertest

import (
	"context"
	"fmt"
	"strings"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// FunctionSpecs are the provider's functions, callable as
// provider::test::NAME once required_providers declares test:
//
//   - upper(s string) string: s in upper case; an empty s is an error about argument 0.
//   - join(sep string, parts ...string) string: the parts joined with sep.
func FunctionSpecs() map[string]provider.FunctionSpec {
	return map[string]provider.FunctionSpec{
		"upper": {
			Parameters: []provider.FunctionParameter{{Name: "s", Type: cty.String}},
			ReturnType: cty.String,
			Summary:    "Upper-cases a string.",
		},
		"join": {
			Parameters:        []provider.FunctionParameter{{Name: "sep", Type: cty.String}},
			VariadicParameter: &provider.FunctionParameter{Name: "parts", Type: cty.String},
			ReturnType:        cty.String,
			Summary:           "Joins strings with a separator.",
		},
	}
}

// FunctionCall is one call of a provider function, as recorded.
type FunctionCall struct {
	Name string
	Args []cty.Value
}

// GetFunctions returns FunctionSpecs.
func (p *Provider) GetFunctions(context.Context) (map[string]provider.FunctionSpec, diag.Diagnostics) {
	return FunctionSpecs(), nil
}

// CallFunction calls upper or join and records the call (see FunctionCalls).
func (p *Provider) CallFunction(_ context.Context, name string, args []cty.Value) (cty.Value, error) {
	p.mu.Lock()
	p.calls = append(p.calls, FunctionCall{Name: name, Args: append([]cty.Value(nil), args...)})
	p.mu.Unlock()
	for i, a := range args {
		if a.IsNull() || !a.IsKnown() || !a.Type().Equals(cty.String) {
			return cty.NilVal, fmt.Errorf("call provider function %s: argument %d is not a known string: %#v", name, i, a)
		}
	}
	switch {
	case name == "upper" && len(args) == 1:
		if args[0].AsString() == "" {
			return cty.NilVal, &provider.FunctionError{Text: "the string must not be empty", Argument: new(int64)}
		}
		return cty.StringVal(strings.ToUpper(args[0].AsString())), nil
	case name == "join" && len(args) >= 1:
		parts := make([]string, len(args)-1)
		for i, a := range args[1:] {
			parts[i] = a.AsString()
		}
		return cty.StringVal(strings.Join(parts, args[0].AsString())), nil
	}
	return cty.NilVal, fmt.Errorf("call provider function %s: no such function taking %d arguments", name, len(args))
}

// FunctionCalls returns the function calls made so far, in order. The
// caller owns the slice.
func (p *Provider) FunctionCalls() []FunctionCall {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]FunctionCall(nil), p.calls...)
}
