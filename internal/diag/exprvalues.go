package diag

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// FunctionCall is the function call a diagnostic is about (its error):
// what OpenTofu shows as "while calling NAME(PARAMS)".
type FunctionCall struct {
	// CalledAs is the name the call was written with (file,
	// provider::p::f).
	CalledAs string
	// Function is the function called; nil when the name is none the
	// call could reach.
	Function *function.Function
}

// TraversalValues returns the values of the traversals of expr in ctx,
// each once, in the order they are written: what a diagnostic about expr
// shows under its source. A traversal that cannot be evaluated (an index
// out of range) gives the value of its longest prefix that can, as
// OpenTofu gives it; one whose root cannot is left out. Values keep their
// marks.
func TraversalValues(expr hcl.Expression, ctx *hcl.EvalContext) []ExprValue {
	var out []ExprValue
	seen := map[string]bool{}
	for _, t := range expr.Variables() {
		for ; len(t) > 0; t = t[:len(t)-1] {
			v, hds := t.TraverseAbs(ctx)
			if hds.HasErrors() {
				continue
			}
			if name := TraversalString(t); !seen[name] {
				seen[name] = true
				out = append(out, ExprValue{Traversal: name, Value: v})
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

// withExpression adds to d what hd says of the expression it is about, as
// OpenTofu shows it: the values its references had, and the function whose
// call failed.
func withExpression(d *Diagnostic, hd *hcl.Diagnostic) {
	if hd.Expression == nil || hd.EvalContext == nil {
		return
	}
	d.Values = TraversalValues(hd.Expression, hd.EvalContext)
	call, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallDiagExtra](hd)
	if !ok || call.CalledFunctionName() == "" {
		return
	}
	d.FunctionCall = &FunctionCall{CalledAs: call.CalledFunctionName()}
	for ctx := hd.EvalContext; ctx != nil; ctx = ctx.Parent() {
		if f, ok := ctx.Functions[d.FunctionCall.CalledAs]; ok {
			d.FunctionCall.Function = &f
			break
		}
	}
}
