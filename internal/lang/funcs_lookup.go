package lang

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// lookupFunc is lookup(map, key[, default]): the element of a map or the
// attribute of an object named key, else default, which may be null or
// unknown (go-cty's own lookup requires a non-null default). Without a
// default, a missing key is an error. Marks on the collection and the key
// are carried to the result; a missing key that is sensitive is not
// printed.
var lookupFunc = function.New(&function.Spec{
	Description: "Returns the value of the element with the given key from the given map, or the default value if there is no such element.",
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true},
		{Name: "key", Type: cty.String, AllowMarked: true},
	},
	VarParam: &function.Parameter{
		Name: "default", Type: cty.DynamicPseudoType,
		AllowNull: true, AllowUnknown: true, AllowMarked: true, AllowDynamicType: true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 3 {
			return cty.NilType, fmt.Errorf("lookup() takes two or three arguments, got %d", len(args))
		}
		hasDefault := len(args) == 3
		ty := args[0].Type()
		switch {
		case ty.IsObjectType():
			if !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			key, _ := args[1].Unmark()
			name := key.AsString()
			switch {
			case ty.HasAttribute(name):
				return ty.AttributeType(name), nil
			case hasDefault:
				return args[2].Type(), nil
			}
			return cty.DynamicPseudoType, function.NewArgErrorf(0, "the given object has no attribute %q", name)
		case ty.IsMapType():
			if hasDefault {
				if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
					return cty.NilType, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
				}
			}
			return ty.ElementType(), nil
		}
		return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		coll, collMarks := args[0].Unmark()
		key, keyMarks := args[1].Unmark()
		marks := []cty.ValueMarks{collMarks, keyMarks}
		name := key.AsString()
		if !coll.IsKnown() {
			return cty.UnknownVal(retType).WithMarks(marks...), nil
		}
		if coll.Type().IsObjectType() {
			if coll.Type().HasAttribute(name) {
				return coll.GetAttr(name).WithMarks(marks...), nil
			}
		} else if coll.HasIndex(cty.StringVal(name)) == cty.True {
			return coll.Index(cty.StringVal(name)).WithMarks(marks...), nil
		}
		if len(args) < 3 {
			return cty.DynamicVal, fmt.Errorf("lookup failed to find key %s", redact(name, keyMarks))
		}
		// The default keeps its own marks.
		def, err := convert.Convert(args[2], retType)
		if err != nil {
			return cty.NilVal, err
		}
		return def.WithMarks(marks...), nil
	},
})
