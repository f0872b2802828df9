package lang

import (
	"errors"
	"math/big"
	"sort"

	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/rig-iac/rig/internal/marks"
)

// lengthFunc is Terraform's length: characters of a string, elements of a
// collection, attributes of an object.
var lengthFunc = function.New(&function.Spec{
	Description: "Returns the number of elements in a collection or characters in a string.",
	Params: []function.Parameter{{
		Name: "value", Type: cty.DynamicPseudoType,
		AllowDynamicType: true, AllowUnknown: true, AllowMarked: true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty == cty.String || ty.IsTupleType() || ty.IsObjectType() || ty.IsListType() ||
			ty.IsMapType() || ty.IsSetType() || ty == cty.DynamicPseudoType:
			return cty.Number, nil
		}
		return cty.Number, function.NewArgErrorf(0, "argument must be a string, a collection type, or a structural type")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		coll, marks := args[0].Unmark()
		ty := coll.Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.UnknownVal(cty.Number).WithMarks(marks), nil
		case ty.IsTupleType():
			return cty.NumberIntVal(int64(len(ty.TupleElementTypes()))).WithMarks(marks), nil
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))).WithMarks(marks), nil
		case ty == cty.String:
			v, err := stdlib.Strlen(coll)
			return v.WithMarks(marks), err
		}
		if !coll.IsKnown() {
			return cty.UnknownVal(cty.Number).WithMarks(marks), nil
		}
		if coll.IsNull() {
			return cty.NilVal, function.NewArgErrorf(0, "argument must not be null")
		}
		return coll.Length().WithMarks(marks), nil
	},
})

// indexFunc is Terraform's index(list, value): the position of value.
var indexFunc = function.New(&function.Spec{
	Description: "Finds the element index for a given value in a list.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type: function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		ty := args[0].Type()
		if !(ty.IsListType() || ty.IsTupleType()) {
			return cty.NilVal, errors.New("argument must be a list or tuple")
		}
		if !args[0].IsKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		if args[0].LengthInt() == 0 {
			return cty.NilVal, errors.New("cannot search an empty list")
		}
		for it := args[0].ElementIterator(); it.Next(); {
			i, v := it.Element()
			eq, err := stdlib.Equal(v, args[1])
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, errors.New("item not found")
	},
})

// sumFunc adds up a list, set or tuple of numbers.
var sumFunc = function.New(&function.Spec{
	Description: "Returns the total sum of the elements of the given list of numbers.",
	Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:        function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		ty := args[0].Type()
		if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple. Received %s", ty.FriendlyName())
		}
		if !args[0].IsWhollyKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		if args[0].LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty list")
		}
		total := new(big.Float)
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			if v.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple of number values")
			}
			n, err := convert.Convert(v, cty.Number)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple of number values")
			}
			total.Add(total, n.AsBigFloat())
		}
		return cty.NumberVal(total), nil
	},
})

// transposeFunc swaps the keys and values of a map of lists of strings.
var transposeFunc = function.New(&function.Spec{
	Description: "Takes a map of lists of strings and swaps the keys and values to produce a new map of lists of strings.",
	Params:      []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
	Type:        function.StaticReturnType(cty.Map(cty.List(cty.String))),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		if !args[0].IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		out := map[string][]string{}
		for it := args[0].ElementIterator(); it.Next(); {
			k, list := it.Element()
			if list.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "cannot use null list for [%q]", k.AsString())
			}
			for lit := list.ElementIterator(); lit.Next(); {
				i, v := lit.Element()
				if v.IsNull() {
					return cty.NilVal, function.NewArgErrorf(0, "cannot use null string for [%q][%s]", k.AsString(), i.AsBigFloat().Text('f', -1))
				}
				out[v.AsString()] = append(out[v.AsString()], k.AsString())
			}
		}
		if len(out) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		m := make(map[string]cty.Value, len(out))
		for k, vs := range out {
			sort.Strings(vs)
			elems := make([]cty.Value, len(vs))
			for i, s := range vs {
				elems[i] = cty.StringVal(s)
			}
			m[k] = cty.ListVal(elems)
		}
		return cty.MapVal(m), nil
	},
})

// oneFunc returns the only element of a collection, or null when it is empty.
var oneFunc = function.New(&function.Spec{
	Description: "Returns either the first element of a one-element list, or null if given a zero-element list.",
	Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty.IsListType() || ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType():
			etys := ty.TupleElementTypes()
			switch len(etys) {
			case 0:
				return cty.DynamicPseudoType, nil
			case 1:
				return etys[0], nil
			}
		}
		return cty.NilType, function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		v := args[0]
		if !v.IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		if v.IsNull() {
			return cty.NilVal, function.NewArgErrorf(0, "argument must not be null")
		}
		switch v.LengthInt() {
		case 0:
			return cty.NullVal(retType), nil
		case 1:
			it := v.ElementIterator()
			it.Next()
			_, e := it.Element()
			return e, nil
		}
		return cty.NilVal, function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")
	},
})

func boolFold(all bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			sawUnknown := false
			for it := args[0].ElementIterator(); it.Next(); {
				_, v := it.Element()
				switch {
				case !v.IsKnown():
					sawUnknown = true
				case v.IsNull():
					if all {
						return cty.False, nil
					}
				case v.True() != all:
					return cty.BoolVal(!all), nil
				}
			}
			if sawUnknown {
				return cty.UnknownVal(cty.Bool), nil
			}
			return cty.BoolVal(all), nil
		},
	})
}

var (
	allTrueFunc = boolFold(true)
	anyTrueFunc = boolFold(false)
)

// makeToFunc is Terraform's tostring, tolist, ...: an explicit conversion.
func makeToFunc(want cty.Type) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{
			Name: "v", Type: cty.DynamicPseudoType,
			AllowNull: true, AllowMarked: true, AllowDynamicType: true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) {
			got := args[0].Type()
			if got.Equals(want) {
				return want, nil
			}
			if convert.GetConversionUnsafe(got, want) == nil {
				switch {
				case got.IsTupleType() && want.IsTupleType():
					return cty.NilType, function.NewArgErrorf(0, "incompatible tuple type for conversion: %s", convert.MismatchMessage(got, want))
				case got.IsObjectType() && want.IsObjectType():
					return cty.NilType, function.NewArgErrorf(0, "incompatible object type for conversion: %s", convert.MismatchMessage(got, want))
				}
				return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
			}
			return want, nil
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			ret, err := convert.Convert(args[0], retType)
			if err == nil {
				return ret, nil
			}
			v, _ := args[0].UnmarkDeep()
			got := v.Type()
			// Nothing about an ephemeral or sensitive value is told, not
			// even the reason it does not convert; an ephemeral one is
			// named so first, as OpenTofu names it.
			if marks.ContainsEphemeral(args[0]) {
				return cty.NilVal, function.NewArgErrorf(0, "cannot convert this ephemeral %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
			}
			if marks.Contains(args[0]) {
				return cty.NilVal, function.NewArgErrorf(0, "cannot convert this sensitive %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
			}
			what := "string"
			if got == cty.String && !v.IsNull() {
				what = `"` + v.AsString() + `"`
			}
			switch {
			case got == cty.String && want == cty.Bool:
				return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to bool; only the strings "true" or "false" are allowed`, what)
			case got == cty.String && want == cty.Number:
				return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to number; given string must be a decimal representation of a number`, what)
			}
			return cty.NilVal, function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
		},
	})
}

// typeFunc returns the type of its argument in type constraint syntax.
var typeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name: "value", Type: cty.DynamicPseudoType,
		AllowNull: true, AllowUnknown: true, AllowMarked: true, AllowDynamicType: true,
	}},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.StringVal(typeexpr.TypeString(args[0].Type())), nil
	},
})

// coalesceFunc is Terraform's coalesce: the first argument that is neither
// null nor an empty string.
var coalesceFunc = function.New(&function.Spec{
	Description: "Returns the first of the given arguments that isn't null or an empty string.",
	VarParam: &function.Parameter{
		Name: "vals", Type: cty.DynamicPseudoType,
		AllowUnknown: true, AllowDynamicType: true, AllowNull: true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		tys := make([]cty.Type, len(args))
		for i, v := range args {
			tys[i] = v.Type()
		}
		ty, _ := convert.UnifyUnsafe(tys)
		if ty == cty.NilType {
			return cty.NilType, errors.New("all arguments must have the same type")
		}
		return ty, nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for _, v := range args {
			v, _ = convert.Convert(v, retType)
			if !v.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			if v.IsNull() || (retType == cty.String && v.RawEquals(cty.StringVal(""))) {
				continue
			}
			return v, nil
		}
		return cty.NilVal, errors.New("no non-null, non-empty-string arguments")
	},
})

// containsFunc is go-cty's contains with a value that must not be null, as
// OpenTofu's: go-cty accepts a null value and, for an untyped null, returns
// an unknown result that never becomes known.
var containsFunc = func() function.Function {
	params := stdlib.ContainsFunc.Params()
	params[1].AllowNull = false
	return function.New(&function.Spec{
		Description: stdlib.ContainsFunc.Description(),
		Params:      params,
		Type:        function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			return stdlib.ContainsFunc.Call(args)
		},
	})
}()

// ephemeralAsNullFunc is OpenTofu's ephemeralasnull: the value with every
// ephemeral part replaced by null.
var ephemeralAsNullFunc = function.New(&function.Spec{
	Description: "Returns the given value with every ephemeral part replaced by null.",
	Params: []function.Parameter{{
		Name: "value", Type: cty.DynamicPseudoType,
		AllowNull: true, AllowUnknown: true, AllowMarked: true, AllowDynamicType: true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return marks.WithoutEphemeral(args[0]), nil
	},
})
