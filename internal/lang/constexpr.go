package lang

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// constantExpr reports whether expr evaluates to the same value in every
// scope: it is made of literals, templates of literals, and tuples and
// objects of them (with literal keys), and so refers to nothing and calls
// no function.
func constantExpr(expr hcl.Expression) bool {
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.TemplateExpr:
		for _, part := range e.Parts {
			if !constantExpr(part) {
				return false
			}
		}
		return true
	case *hclsyntax.TemplateWrapExpr:
		return constantExpr(e.Wrapped)
	case *hclsyntax.TupleConsExpr:
		for _, x := range e.Exprs {
			if !constantExpr(x) {
				return false
			}
		}
		return true
	case *hclsyntax.ObjectConsExpr:
		for _, item := range e.Items {
			if !constantExpr(item.KeyExpr) || !constantExpr(item.ValueExpr) {
				return false
			}
		}
		return true
	case *hclsyntax.ObjectConsKeyExpr:
		// A bare name is the key's literal text; anything else is
		// evaluated.
		if !e.ForceNonLiteral && hcl.ExprAsKeyword(e.Wrapped) != "" {
			return true
		}
		return constantExpr(e.Wrapped)
	}
	return false
}

// constantValue is the value of a constant argument (constantExpr),
// converted to its attribute's type, worked out the first time a body is
// decoded and the same for every later decoding: literal arguments are
// common, and each evaluation built its strings, objects and types anew.
type constantValue struct {
	once sync.Once
	val  cty.Value
	ok   bool
}

// value returns the argument's value, evaluating expr in ctx and
// converting it to ty the first time; ok is false when that reported
// anything (the caller then decodes with hcldec, for its diagnostics).
func (c *constantValue) value(expr hcl.Expression, ty cty.Type, ctx *hcl.EvalContext) (cty.Value, bool) {
	c.once.Do(func() {
		v, diags := expr.Value(ctx)
		if len(diags) > 0 {
			return
		}
		v, err := convert.Convert(v, ty)
		if err != nil {
			return
		}
		c.val, c.ok = v, true
	})
	return c.val, c.ok
}
