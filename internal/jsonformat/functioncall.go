package jsonformat

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// FunctionCall is a diagnostic snippet's "function_call", as OpenTofu and
// Terraform write it: the name the failed call was written with and,
// when it names a function, that function's signature.
type FunctionCall struct {
	CalledAs  string             `json:"called_as"`
	Signature *FunctionSignature `json:"signature,omitempty"`
}

// FunctionSignature is a function's signature in a FunctionCall: its name
// without namespace, its parameters and its return type when every
// argument has its parameter's type (dynamic when that cannot be told).
type FunctionSignature struct {
	Name          string                   `json:"name"`
	Params        []FunctionSignatureParam `json:"params"`
	VariadicParam *FunctionSignatureParam  `json:"variadic_param,omitempty"`
	ReturnType    json.RawMessage          `json:"return_type"`
}

// FunctionSignatureParam is one parameter of a FunctionSignature.
type FunctionSignatureParam struct {
	Name string          `json:"name"`
	Type json.RawMessage `json:"type"`
}

// NewFunctionSignature describes f, called name, for a FunctionCall.
func NewFunctionSignature(name string, f function.Function) *FunctionSignature {
	sig := &FunctionSignature{Name: name, Params: []FunctionSignatureParam{}}
	var types []cty.Type
	for _, p := range f.Params() {
		sig.Params = append(sig.Params, FunctionSignatureParam{Name: p.Name, Type: marshalType(p.Type)})
		types = append(types, p.Type)
	}
	if vp := f.VarParam(); vp != nil {
		sig.VariadicParam = &FunctionSignatureParam{Name: vp.Name, Type: marshalType(vp.Type)}
		types = append(types, vp.Type)
	}
	ret, err := f.ReturnType(types)
	if err != nil {
		ret = cty.DynamicPseudoType
	}
	sig.ReturnType = marshalType(ret)
	return sig
}
