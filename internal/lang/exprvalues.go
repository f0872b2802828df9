package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/diag"
)

// ExpressionValues returns the values the references of expr have in s,
// each reference once, in the order they are written: what a diagnostic
// about expr (a failed condition) shows. References that cannot be
// evaluated are left out. Values keep their marks.
func (s *Scope) ExpressionValues(expr hcl.Expression) []diag.ExprValue {
	if expr == nil {
		return nil
	}
	refs, ds := cachedReferences(expr)
	if ds.HasErrors() {
		return nil
	}
	ctx, _ := s.EvalContext(refs)
	return TraversalValues(expr, ctx)
}

// EqualityDifference returns the values in s of the two sides of expr
// when it is an equality (a == b), for a diagnostic to show them as a
// diff, as OpenTofu 1.12 does; nil for any other expression, or when the
// left side is not wholly known.
func (s *Scope) EqualityDifference(expr hcl.Expression) *diag.ExprDifference {
	eq, ok := expr.(*hclsyntax.BinaryOpExpr)
	if !ok || eq.Op != hclsyntax.OpEqual {
		return nil
	}
	refs, ds := cachedReferences(expr)
	if ds.HasErrors() {
		return nil
	}
	ctx, _ := s.EvalContext(refs)
	left, _ := eq.LHS.Value(ctx)
	right, _ := eq.RHS.Value(ctx)
	if plain, _ := left.UnmarkDeep(); !plain.IsWhollyKnown() {
		return nil
	}
	return &diag.ExprDifference{Left: left, Right: right}
}

// TraversalValues returns the values of the traversals of expr in ctx,
// each once, in the order they are written. A traversal that cannot be
// evaluated (an index out of range) gives the value of its longest prefix
// that can, as OpenTofu gives it; one whose root cannot is left out.
func TraversalValues(expr hcl.Expression, ctx *hcl.EvalContext) []diag.ExprValue {
	var out []diag.ExprValue
	seen := map[string]bool{}
	for _, t := range expr.Variables() {
		for ; len(t) > 0; t = t[:len(t)-1] {
			v, hds := t.TraverseAbs(ctx)
			if hds.HasErrors() {
				continue
			}
			if name := TraversalString(t); !seen[name] {
				seen[name] = true
				out = append(out, diag.ExprValue{Traversal: name, Value: v})
			}
			break
		}
	}
	return out
}

// TraversalString writes a traversal as it is written in configuration:
// var.name, aws_x.y[0].id, local.m["k"].
func TraversalString(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			switch {
			case !s.Key.IsKnown() || s.Key.IsNull():
				b.WriteString("[?]")
			case s.Key.Type() == cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			case s.Key.Type() == cty.Number:
				b.WriteString("[" + s.Key.AsBigFloat().Text('f', -1) + "]")
			default:
				b.WriteString("[?]")
			}
		case hcl.TraverseSplat:
			b.WriteString("[*]")
		}
	}
	return b.String()
}
