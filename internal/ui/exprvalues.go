package ui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/marks"
)

// exprStatements returns what a diagnostic says of each value of its
// expression ("is \"x\"", "has a sensitive value"), sorted by traversal, in
// the form OpenTofu's diagnostics give them. A sensitive value is only said
// to be one unless showSensitive.
func exprStatements(values []diag.ExprValue, showSensitive bool) []jsonformat.ExpressionValue {
	out := make([]jsonformat.ExpressionValue, 0, len(values))
	for _, v := range values {
		out = append(out, jsonformat.ExpressionValue{Traversal: v.Traversal, Statement: exprStatement(v.Value, showSensitive)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Traversal < out[j].Traversal })
	return out
}

func exprStatement(v cty.Value, showSensitive bool) string {
	v, ms := v.Unmark()
	for m := range ms {
		if marks.IsSensitive(m) && !showSensitive {
			return "has a sensitive value"
		}
	}
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() {
		if ty := v.Type(); ty != cty.DynamicPseudoType {
			return fmt.Sprintf("is a %s, known only after apply", ty.FriendlyName())
		}
		return "will be known only after apply"
	}
	return "is " + compactValue(v)
}

// compactValue describes a value in a few words: primitives as written,
// collections and objects by their type and size (never their elements,
// which may be sensitive where the whole is not marked).
func compactValue(v cty.Value) string {
	ty := v.Type()
	switch {
	case v.IsNull():
		return "null"
	case ty == cty.Bool:
		if v.True() {
			return "true"
		}
		return "false"
	case ty == cty.Number:
		return v.AsBigFloat().Text('g', 10)
	case ty == cty.String:
		return fmt.Sprintf("%q", v.AsString())
	case ty.IsCollectionType() || ty.IsTupleType():
		switch n := v.LengthInt(); n {
		case 0:
			return "empty " + ty.FriendlyName()
		case 1:
			return ty.FriendlyName() + " with 1 element"
		default:
			return fmt.Sprintf("%s with %d elements", ty.FriendlyName(), n)
		}
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		switch len(attrs) {
		case 0:
			return "object with no attributes"
		case 1:
			for name := range attrs {
				return fmt.Sprintf("object with 1 attribute %q", name)
			}
		}
		return fmt.Sprintf("object with %d attributes", len(attrs))
	}
	return ty.FriendlyName()
}

// writeExprValues writes the values of a diagnostic's expression under its
// source lines, as OpenTofu does.
func writeExprValues(b *strings.Builder, values []diag.ExprValue, o ropts) {
	if len(values) == 0 {
		return
	}
	b.WriteString(o.c("    [dark_gray]├────────────────[reset]\n"))
	for _, v := range exprStatements(values, o.showSensitive) {
		fmt.Fprintf(b, o.c("    [dark_gray]│[reset] [bold]%s[reset] %s\n"), printable(v.Traversal), printable(v.Statement))
	}
}
