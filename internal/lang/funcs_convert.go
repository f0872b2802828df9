package lang

import (
	"fmt"
	"reflect"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// typeConstraint is the second argument of convert: a type constraint
// written as in a variable's type (optional attributes and their defaults
// included), not a value.
type typeConstraint struct {
	ty       cty.Type
	defaults *typeexpr.Defaults
}

// convertFunc is convert(value, type) (Terraform 1.15, OpenTofu 1.13): the
// value converted to the type constraint written as the second argument,
// with optional attributes' defaults applied, as Terraform does it.
var convertFunc = makeConvertFunc()

// makeConvertFunc builds convertFunc. Its second parameter has a capsule
// type whose hcl decoder reads the argument's expression as a type
// constraint (typeexpr) rather than evaluating it; the decoder returns
// values of that same type, so the type is made here, before the decoder
// refers to it.
func makeConvertFunc() function.Function {
	var constraintType cty.Type
	constraintType = cty.CapsuleWithOps("type_constraint", reflect.TypeFor[typeConstraint](), &cty.CapsuleOps{
		ExtensionData: func(key any) any {
			if key != customdecode.CustomExpressionDecoder {
				return nil
			}
			return customdecode.CustomExpressionDecoderFunc(func(expr hcl.Expression, _ *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
				ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(expr)
				if diags.HasErrors() {
					return cty.NilVal, diags
				}
				return cty.CapsuleVal(constraintType, &typeConstraint{ty: ty, defaults: defaults}), nil
			})
		},
		TypeGoString: func(reflect.Type) string { return "typeConstraint" },
		GoString: func(raw any) string {
			return fmt.Sprintf("typeConstraint(%#v)", raw.(*typeConstraint).ty)
		},
	})
	return function.New(&function.Spec{
		Description: "Converts a value to the given type constraint.",
		Params: []function.Parameter{
			{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true, AllowMarked: true, AllowUnknown: true},
			{Name: "type", Type: constraintType},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			if !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			return args[1].EncapsulatedValue().(*typeConstraint).ty.WithoutOptionalAttributesDeep(), nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			c := args[1].EncapsulatedValue().(*typeConstraint)
			v, err := convert.Convert(args[0], c.ty)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			if c.defaults != nil {
				v = c.defaults.Apply(v)
			}
			return v, nil
		},
	})
}
