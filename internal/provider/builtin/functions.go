package builtin

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/provider"
)

// The built-in provider's functions, as OpenTofu 1.10 defines them:
// provider::terraform::encode_tfvars, decode_tfvars and encode_expr (callable
// once required_providers declares terraform = { source =
// "terraform.io/builtin/terraform" }).
var functionSpecs = map[string]provider.FunctionSpec{
	"decode_tfvars": {
		Parameters: []provider.FunctionParameter{{Name: "content", Type: cty.String, Description: "TFVars file content to decode"}},
		ReturnType: cty.DynamicPseudoType,
		Summary:    "Decode a TFVars file content into an object",
	},
	"encode_tfvars": {
		Parameters: []provider.FunctionParameter{{Name: "input", Type: cty.DynamicPseudoType,
			Description: "Input to encode for TFVars file. Must be an object with key that are valid identifiers"}},
		ReturnType: cty.String,
		Summary:    "Encode an object into a string with the same format as a TFVars file",
	},
	"encode_expr": {
		Parameters: []provider.FunctionParameter{{Name: "expr", Type: cty.DynamicPseudoType, Description: "expression to encode"}},
		ReturnType: cty.String,
		Summary:    "Takes an arbitrary expression and converts it into a string with valid OpenTofu syntax",
	},
}

// functionImpls are the implementations of functionSpecs. Each receives
// arguments that conform to the parameters.
var functionImpls = map[string]func(arg cty.Value) (cty.Value, error){
	"decode_tfvars": decodeTFVars,
	"encode_tfvars": encodeTFVars,
	"encode_expr":   encodeExpr,
}

// decodeTFVars parses the content of a .tfvars file into an object of its
// attributes. The expressions may not refer to anything.
func decodeTFVars(arg cty.Value) (cty.Value, error) {
	f, ds := hclsyntax.ParseConfig([]byte(arg.AsString()), "", hcl.Pos{Line: 0, Column: 0})
	if f == nil || ds.HasErrors() {
		return cty.NilVal, decodeFailed(ds)
	}
	attrs, ds := f.Body.JustAttributes()
	if attrs == nil || ds.HasErrors() {
		return cty.NilVal, decodeFailed(ds)
	}
	vals := make(map[string]cty.Value, len(attrs))
	for name, attr := range attrs {
		v, ds := attr.Expr.Value(nil)
		if ds.HasErrors() {
			return cty.NilVal, decodeFailed(ds)
		}
		vals[name] = v
	}
	return cty.ObjectVal(vals), nil
}

func decodeFailed(ds hcl.Diagnostics) error {
	return errors.Join(append([]error{errors.New("failed to decode tfvars content")}, ds.Errs()...)...)
}

// encodeTFVars writes an object as a .tfvars file: one attribute a line,
// in the order of the object's attribute names.
func encodeTFVars(arg cty.Value) (cty.Value, error) {
	if arg.IsNull() {
		return cty.NilVal, errors.New("invalid input: must not be null")
	}
	if !arg.Type().IsObjectType() {
		return cty.NilVal, errors.New("invalid input: must be an object")
	}
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	for it := arg.ElementIterator(); it.Next(); {
		k, v := it.Element()
		name := k.AsString()
		if !hclsyntax.ValidIdentifier(name) {
			return cty.NilVal, fmt.Errorf("invalid input: object key: %s - must be a valid identifier", name)
		}
		body.SetAttributeValue(name, v)
	}
	return cty.StringVal(string(f.Bytes())), nil
}

// encodeExpr writes any known value as an expression.
func encodeExpr(arg cty.Value) (cty.Value, error) {
	if !arg.IsWhollyKnown() {
		return cty.NilVal, errors.New("input is not known")
	}
	f := hclwrite.NewEmptyFile()
	f.Body().AppendUnstructuredTokens(hclwrite.TokensForValue(arg))
	return cty.StringVal(string(f.Bytes())), nil
}
