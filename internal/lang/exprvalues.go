package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
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

// TraversalValues returns the values of the traversals of expr in ctx,
// each once, in the order they are written; traversals that cannot be
// evaluated are left out.
func TraversalValues(expr hcl.Expression, ctx *hcl.EvalContext) []diag.ExprValue {
	var out []diag.ExprValue
	seen := map[string]bool{}
	for _, t := range expr.Variables() {
		v, hds := t.TraverseAbs(ctx)
		if hds.HasErrors() {
			continue
		}
		name := TraversalString(t)
		if seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, diag.ExprValue{Traversal: name, Value: v})
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
