package config

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/diag"
)

// ignoredDefaultAttributes warns, as OpenTofu does, about the attributes
// written in a variable's default (in object constructors, at any depth)
// that its type constraint has no place for: type conversion drops them,
// so writing them is almost certainly a mistake.
func ignoredDefaultAttributes(expr hcl.Expression, ty cty.Type) hcl.Diagnostics {
	var diags hcl.Diagnostics
	walkIgnoredAttributes(expr, ty, nil, func(path cty.Path, name string, key, object hcl.Range, ty cty.Type) {
		what := "The object type for this variable"
		if len(path) > 0 {
			what = "The object type for " + diag.FormatRelativePath(path)
		}
		detail := fmt.Sprintf("%s does not include an attribute named %q, so this definition is unused.", what, name)
		if near := closestName(name, slices.Collect(maps.Keys(ty.AttributeTypes()))); near != "" {
			detail += fmt.Sprintf(" Did you mean to set attribute %q instead?", near)
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Object attribute is ignored",
			Detail: detail, Subject: key.Ptr(), Context: object.Ptr()})
	})
	return diags
}

// walkIgnoredAttributes calls found for each key of an object constructor
// in expr that type ty (the type at path) has no attribute for, with the
// range of the key and of the whole constructor.
func walkIgnoredAttributes(expr hcl.Expression, ty cty.Type, path cty.Path, found func(cty.Path, string, hcl.Range, hcl.Range, cty.Type)) {
	step := func(p cty.PathStep) cty.Path {
		return append(slices.Clip(path), p)
	}
	switch e := expr.(type) {
	case *hclsyntax.ObjectConsExpr:
		for _, item := range e.Items {
			name, ok := constructorKey(item.KeyExpr)
			if !ok {
				continue
			}
			switch {
			case ty.IsObjectType() && !ty.HasAttribute(name):
				found(path, name, item.KeyExpr.Range(), e.SrcRange, ty)
			case ty.IsObjectType():
				walkIgnoredAttributes(item.ValueExpr, ty.AttributeType(name), step(cty.GetAttrStep{Name: name}), found)
			case ty.IsMapType():
				walkIgnoredAttributes(item.ValueExpr, ty.ElementType(), step(cty.IndexStep{Key: cty.StringVal(name)}), found)
			}
		}
	case *hclsyntax.TupleConsExpr:
		switch {
		case ty.IsListType() || ty.IsSetType():
			for i, el := range e.Exprs {
				walkIgnoredAttributes(el, ty.ElementType(), step(cty.IndexStep{Key: cty.NumberIntVal(int64(i))}), found)
			}
		case ty.IsTupleType() && len(ty.TupleElementTypes()) == len(e.Exprs):
			for i, el := range e.Exprs {
				walkIgnoredAttributes(el, ty.TupleElementType(i), step(cty.IndexStep{Key: cty.NumberIntVal(int64(i))}), found)
			}
		}
	case *hclsyntax.ForExpr:
		switch {
		case e.KeyExpr != nil && ty.IsMapType():
			walkIgnoredAttributes(e.ValExpr, ty.ElementType(), step(cty.IndexStep{Key: cty.UnknownVal(cty.String)}), found)
		case e.KeyExpr == nil && (ty.IsListType() || ty.IsSetType()):
			walkIgnoredAttributes(e.ValExpr, ty.ElementType(), step(cty.IndexStep{Key: cty.UnknownVal(cty.Number)}), found)
		}
	}
}

// constructorKey returns the name an object constructor's key expression
// gives, when it is a constant.
func constructorKey(expr hcl.Expression) (string, bool) {
	v, diags := expr.Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() {
		return "", false
	}
	v, _ = v.Unmark()
	v, err := convert.Convert(v, cty.String)
	if err != nil {
		return "", false
	}
	return v.AsString(), true
}

// closestName returns the candidate within two edits of given, the first
// in sorted order among the nearest; "" when none is that close.
func closestName(given string, candidates []string) string {
	slices.Sort(candidates)
	best, bestDist := "", 3
	for _, c := range candidates {
		if d := diag.EditDistance(given, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}
