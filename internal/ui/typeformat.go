package ui

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// FormatType writes a type in type constraint syntax as the console's
// type() shows it: structural types and collections of them over several
// lines, indented by four spaces.
func FormatType(ty cty.Type, indent int) string {
	pad := strings.Repeat(" ", indent+4)
	end := strings.Repeat(" ", indent)
	switch {
	case ty == cty.DynamicPseudoType:
		return "dynamic"
	case ty.IsPrimitiveType():
		return ty.FriendlyName()
	case ty.IsListType(), ty.IsSetType(), ty.IsMapType():
		kind := "list"
		if ty.IsSetType() {
			kind = "set"
		} else if ty.IsMapType() {
			kind = "map"
		}
		et := ty.ElementType()
		if et.IsObjectType() || et.IsTupleType() {
			return kind + "(\n" + pad + FormatType(et, indent+4) + ",\n" + end + ")"
		}
		return kind + "(" + FormatType(et, indent) + ")"
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		if len(attrs) == 0 {
			return "object({})"
		}
		var b strings.Builder
		b.WriteString("object({\n")
		for _, name := range slices.Sorted(maps.Keys(attrs)) {
			fmt.Fprintf(&b, "%s%s: %s,\n", pad, name, FormatType(attrs[name], indent+4))
		}
		return b.String() + end + "})"
	case ty.IsTupleType():
		elems := ty.TupleElementTypes()
		if len(elems) == 0 {
			return "tuple([])"
		}
		var b strings.Builder
		b.WriteString("tuple([\n")
		for _, et := range elems {
			fmt.Fprintf(&b, "%s%s,\n", pad, FormatType(et, indent+4))
		}
		return b.String() + end + "])"
	}
	return ty.FriendlyName()
}
