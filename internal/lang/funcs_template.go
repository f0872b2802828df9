package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// templateStringFunc is templatestring(template, vars): template, any string
// value, rendered as templatefile renders a file's content. As in OpenTofu
// (unlike Terraform), the template need not be a direct reference. Marks of
// vars as a whole and of template go to the result; marks inside vars
// follow the values the template uses.
func templateStringFunc(funcs func() map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Description: "Renders a string as a template using a supplied set of template variables.",
		Params: []function.Parameter{
			{Name: "data", Type: cty.String},
			{Name: "vars", Type: cty.DynamicPseudoType, AllowMarked: true},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			if ty := args[1].Type(); !ty.IsObjectType() && !ty.IsMapType() && ty != cty.DynamicPseudoType {
				return cty.DynamicPseudoType, function.NewArgErrorf(1, "invalid vars value: must be a map")
			}
			return cty.DynamicPseudoType, nil
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			expr, diags := hclsyntax.ParseTemplate([]byte(args[0].AsString()), templateStringFilename, hcl.InitialPos)
			if diags.HasErrors() {
				return cty.DynamicVal, diags
			}
			vars, marks := args[1].Unmark()
			if !vars.Type().IsObjectType() && !vars.Type().IsMapType() {
				return cty.DynamicVal, function.NewArgErrorf(1, "invalid vars value: must be a map")
			}
			v, err := renderTemplate(expr, vars, funcs(), false)
			return v.WithMarks(marks), err
		},
	})
}

// templateStringFilename is the file name of templatestring's source ranges.
const templateStringFilename = "NoFileNeeded"

// renderTemplate evaluates the parsed template expr with the variables of
// the map or object vars (known, not null, unmarked at the top) and the
// functions fns. withPos adds to a missing variable's error where the
// template refers to it.
func renderTemplate(expr hclsyntax.Expression, vars cty.Value, fns map[string]function.Function, withPos bool) (cty.Value, error) {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}, Functions: fns}
	for it := vars.ElementIterator(); it.Next(); {
		k, v := it.Element()
		if !hclsyntax.ValidIdentifier(k.AsString()) {
			return cty.DynamicVal, function.NewArgErrorf(1, "invalid template variable name %q: must start with a letter, followed by zero or more letters, digits, and underscores", k.AsString())
		}
		ctx.Variables[k.AsString()] = v
	}
	for _, trav := range expr.Variables() {
		if _, ok := ctx.Variables[trav.RootName()]; !ok {
			if withPos {
				return cty.DynamicVal, function.NewArgErrorf(1, "vars map does not contain key %q, referenced at %s", trav.RootName(), trav[0].SourceRange())
			}
			return cty.DynamicVal, function.NewArgErrorf(1, "vars map does not contain key %q", trav.RootName())
		}
	}
	v, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return v, nil
}
