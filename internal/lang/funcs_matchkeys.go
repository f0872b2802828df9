package lang

import (
	"errors"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// matchkeysFunc is matchkeys(values, keys, searchset): the elements of values
// whose corresponding element of keys is in searchset, in order. keys and
// searchset must unify to one type.
var matchkeysFunc = function.New(&function.Spec{
	Description: "Constructs a new list by taking a subset of elements from one list whose indexes match the corresponding indexes of values in another list.",
	Params: []function.Parameter{
		{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()}); ty == cty.NilType {
			return cty.NilType, errors.New("keys and searchset must be of the same type")
		}
		return args[0].Type(), nil
	},
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder { return b.NotNull() },
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		values := args[0]
		elem := retType.ElementType()
		if values.LengthInt() != args[1].LengthInt() {
			return cty.ListValEmpty(elem), errors.New("length of keys and values should be equal")
		}
		ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()})
		keys, _ := convert.Convert(args[1], ty)
		search, _ := convert.Convert(args[2], ty)
		if search.LengthInt() == 0 {
			return cty.ListValEmpty(elem), nil
		}
		if !values.IsWhollyKnown() || !keys.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		var out []cty.Value
		for i, key := range keys.AsValueSlice() {
			for _, s := range search.AsValueSlice() {
				eq, err := stdlib.Equal(key, s)
				if err != nil {
					return cty.NilVal, err
				}
				if !eq.IsKnown() {
					// OpenTofu answers an empty list when a key cannot be
					// compared yet.
					return cty.ListValEmpty(elem), nil
				}
				if eq.True() {
					out = append(out, values.Index(cty.NumberIntVal(int64(i))))
					break
				}
			}
		}
		if len(out) == 0 {
			return cty.ListValEmpty(elem), nil
		}
		return cty.ListVal(out), nil
	},
})

// removedFunc is a function of Terraform 0.11 that OpenTofu keeps only to
// say what replaced it: every call is an error.
func removedFunc(name, instead string) function.Function {
	err := fmt.Errorf("the %q function was deprecated in Terraform v0.12 and is not available in OpenTofu; use %s syntax to write a literal %s", name, instead, name)
	return function.New(&function.Spec{
		VarParam: &function.Parameter{
			Name: "vals", Type: cty.DynamicPseudoType,
			AllowUnknown: true, AllowDynamicType: true, AllowNull: true,
		},
		Type: func([]cty.Value) (cty.Type, error) { return cty.DynamicPseudoType, err },
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) { return cty.DynamicVal, err },
	})
}
