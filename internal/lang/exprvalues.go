package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

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

// TraversalValues is diag.TraversalValues: the values of the traversals
// of expr in ctx, each once, in the order they are written.
func TraversalValues(expr hcl.Expression, ctx *hcl.EvalContext) []diag.ExprValue {
	return diag.TraversalValues(expr, ctx)
}

// TraversalString is diag.TraversalString: a traversal as it is written
// in configuration.
func TraversalString(t hcl.Traversal) string { return diag.TraversalString(t) }
