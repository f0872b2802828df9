package lang

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// plainExpr evaluates an argument's expression as hclsyntax would, for a
// plain decode (plainDecode): its value, or ok false when hclsyntax would
// report anything, the caller then decoding with hcldec. It is compiled
// once per body (compilePlain) and evaluates the common shapes without
// hclsyntax's work for them: constants are evaluated once, objects with
// literal keys do not evaluate their keys again, and references of
// attribute names only are followed without building a step for each
// name. Anything else is left to hclsyntax.
type plainExpr interface {
	value(ctx *hcl.EvalContext) (cty.Value, bool)
}

// compilePlain returns the plainExpr of expr.
func compilePlain(expr hcl.Expression) plainExpr {
	if constantExpr(expr) {
		return &constantExprValue{expr: expr}
	}
	switch e := expr.(type) {
	case *hclsyntax.ObjectConsExpr:
		o := &objectCons{keys: make([]string, len(e.Items)), vals: make([]plainExpr, len(e.Items))}
		for i, item := range e.Items {
			key, ok := literalKey(item.KeyExpr)
			if !ok {
				return hclExpr{expr}
			}
			o.keys[i], o.vals[i] = key, compilePlain(item.ValueExpr)
		}
		return o
	case *hclsyntax.TupleConsExpr:
		t := &tupleCons{elems: make([]plainExpr, len(e.Exprs))}
		for i, x := range e.Exprs {
			t.elems[i] = compilePlain(x)
		}
		return t
	case *hclsyntax.ScopeTraversalExpr:
		if r, ok := newAttrRef(e); ok {
			return r
		}
	}
	return hclExpr{expr}
}

// literalKey returns the key an object constructor's key expression always
// evaluates to: a bare name, or a constant string.
func literalKey(expr hcl.Expression) (string, bool) {
	if !constantExpr(expr) {
		return "", false
	}
	k, diags := expr.Value(nil)
	if len(diags) > 0 || k.IsMarked() || !k.IsKnown() || k.IsNull() {
		return "", false
	}
	k, err := convert.Convert(k, cty.String)
	if err != nil || !k.IsKnown() || k.IsNull() {
		return "", false
	}
	return k.AsString(), true
}

// hclExpr is an expression hclsyntax evaluates.
type hclExpr struct{ expr hcl.Expression }

func (h hclExpr) value(ctx *hcl.EvalContext) (cty.Value, bool) {
	v, diags := h.expr.Value(ctx)
	return v, len(diags) == 0
}

// constantExprValue is a constant expression (constantExpr), evaluated the
// first time.
type constantExprValue struct {
	expr hcl.Expression
	once sync.Once
	val  cty.Value
	ok   bool
}

func (c *constantExprValue) value(ctx *hcl.EvalContext) (cty.Value, bool) {
	c.once.Do(func() {
		v, diags := c.expr.Value(ctx)
		c.val, c.ok = v, len(diags) == 0
	})
	return c.val, c.ok
}

// objectCons is an object constructor whose keys are literal: its value
// is the object of its values (a later duplicate key wins, as in
// hclsyntax).
type objectCons struct {
	keys []string
	vals []plainExpr
}

func (o *objectCons) value(ctx *hcl.EvalContext) (cty.Value, bool) {
	vals := make(map[string]cty.Value, len(o.keys))
	for i, k := range o.keys {
		v, ok := o.vals[i].value(ctx)
		if !ok {
			return cty.NilVal, false
		}
		vals[k] = v
	}
	return cty.ObjectVal(vals), true
}

// tupleCons is a tuple constructor.
type tupleCons struct{ elems []plainExpr }

func (t *tupleCons) value(ctx *hcl.EvalContext) (cty.Value, bool) {
	vals := make([]cty.Value, len(t.elems))
	for i, e := range t.elems {
		v, ok := e.value(ctx)
		if !ok {
			return cty.NilVal, false
		}
		vals[i] = v
	}
	return cty.TupleVal(vals), true
}

// attrRef is a reference of a root name and attribute names
// (terraform_data.a.id). Where the root is in the context and every step
// is an attribute of a known object, its value is that attribute, as
// hclsyntax finds it; anything else hclsyntax evaluates.
type attrRef struct {
	expr  *hclsyntax.ScopeTraversalExpr
	root  string
	attrs []string
}

func newAttrRef(e *hclsyntax.ScopeTraversalExpr) (*attrRef, bool) {
	if len(e.Traversal) == 0 {
		return nil, false
	}
	root, ok := e.Traversal[0].(hcl.TraverseRoot)
	if !ok {
		return nil, false
	}
	r := &attrRef{expr: e, root: root.Name, attrs: make([]string, 0, len(e.Traversal)-1)}
	for _, step := range e.Traversal[1:] {
		a, ok := step.(hcl.TraverseAttr)
		if !ok {
			return nil, false
		}
		r.attrs = append(r.attrs, a.Name)
	}
	return r, true
}

func (r *attrRef) value(ctx *hcl.EvalContext) (cty.Value, bool) {
	if ctx != nil {
		if v, found := ctx.Variables[r.root]; found {
			for _, name := range r.attrs {
				// The type's own map is looked in, without normalizing the
				// name as HasAttribute does: a name that is not found so
				// goes to hclsyntax.
				ty := v.Type()
				if v.IsNull() || !ty.IsObjectType() || !v.IsKnown() {
					return hclExpr{r.expr}.value(ctx)
				}
				if _, ok := ty.AttributeTypes()[name]; !ok {
					return hclExpr{r.expr}.value(ctx)
				}
				v = v.GetAttr(name)
			}
			return v, true
		}
	}
	return hclExpr{r.expr}.value(ctx)
}
