package jsonformat

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/rig-iac/rig/internal/provider"
)

// FunctionSignatures is what metadata functions -json prints, in the
// format OpenTofu and Terraform print it (format_version 1.0).
type FunctionSignatures struct {
	FormatVersion string               `json:"format_version"`
	Signatures    map[string]*Function `json:"function_signatures,omitempty"`
}

// Function is one function's signature, as Terraform's jsonfunction
// package defines it for both the built-in functions and a provider's: its
// return type when every argument has its parameter's type, its
// positional parameters and its variadic one.
type Function struct {
	Description        string               `json:"description,omitempty"`
	Summary            string               `json:"summary,omitempty"`
	DeprecationMessage string               `json:"deprecation_message,omitempty"`
	ReturnType         json.RawMessage      `json:"return_type"`
	Parameters         []*FunctionParameter `json:"parameters,omitempty"`
	VariadicParameter  *FunctionParameter   `json:"variadic_parameter,omitempty"`
}

// FunctionParameter is a parameter of a Function.
type FunctionParameter struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	IsNullable  bool            `json:"is_nullable,omitempty"`
	Type        json.RawMessage `json:"type"`
}

// NewFunction describes the built-in function name. can and try take
// expressions, not values: their parameters are of any type, and their
// results a bool and any type; convert's second parameter is a type
// constraint, shown as any type, as Terraform shows it.
func NewFunction(name string, f function.Function) (*Function, error) {
	sig := &Function{Description: f.Description()}
	for _, p := range f.Params() {
		sig.Parameters = append(sig.Parameters, newParameter(p))
	}
	if vp := f.VarParam(); vp != nil {
		sig.VariadicParameter = newParameter(*vp)
	}
	switch name {
	case "can":
		sig.ReturnType = marshalType(cty.Bool)
		sig.Parameters[0].Type = marshalType(cty.DynamicPseudoType)
		return sig, nil
	case "try":
		sig.ReturnType = marshalType(cty.DynamicPseudoType)
		sig.VariadicParameter.Type = marshalType(cty.DynamicPseudoType)
		return sig, nil
	case "convert":
		sig.ReturnType = marshalType(cty.DynamicPseudoType)
		sig.Parameters[1].Type = marshalType(cty.DynamicPseudoType)
		return sig, nil
	}
	var types []cty.Type
	for _, p := range f.Params() {
		types = append(types, p.Type)
	}
	if vp := f.VarParam(); vp != nil {
		types = append(types, vp.Type)
	}
	ret, err := f.ReturnType(types)
	if err != nil {
		return nil, err
	}
	sig.ReturnType = marshalType(ret)
	return sig, nil
}

func newParameter(p function.Parameter) *FunctionParameter {
	return &FunctionParameter{Name: p.Name, Description: p.Description, IsNullable: p.AllowNull, Type: marshalType(p.Type)}
}

// newProviderFunction describes a provider-defined function.
func newProviderFunction(f provider.FunctionSpec) *Function {
	out := &Function{Description: f.Description, Summary: f.Summary, DeprecationMessage: f.DeprecationMessage, ReturnType: marshalType(f.ReturnType)}
	param := func(p provider.FunctionParameter) *FunctionParameter {
		return &FunctionParameter{Name: p.Name, Description: p.Description, IsNullable: p.AllowNullValue, Type: marshalType(p.Type)}
	}
	for _, p := range f.Parameters {
		out.Parameters = append(out.Parameters, param(p))
	}
	if f.VariadicParameter != nil {
		out.VariadicParameter = param(*f.VariadicParameter)
	}
	return out
}

// marshalType is a type in cty's JSON type syntax ("string",
// ["list","number"]); a type cty cannot write (none in a valid schema) is
// "dynamic".
func marshalType(ty cty.Type) json.RawMessage {
	if ty == cty.NilType {
		ty = cty.DynamicPseudoType
	}
	b, err := ty.MarshalJSON()
	if err != nil {
		return json.RawMessage(`"dynamic"`)
	}
	return b
}
