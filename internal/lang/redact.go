package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/marks"
)

// redactDiagnostics keeps sensitive values out of the diagnostics of an
// evaluation: in each diagnostic about an expression (one hcl gives with
// the expression and its evaluation context: a function that failed, an
// operand of the wrong type), every text a sensitive value the
// expression refers to or passes to the failed function has is replaced
// by "(sensitive value)". Functions that know an argument is sensitive
// word their errors without it (tonumber's "cannot convert this sensitive
// string"); this catches those that do not, such as the library's
// parseint or a provider-defined function quoting its argument. ds is
// changed in place.
func redactDiagnostics(ds hcl.Diagnostics) {
	for _, d := range ds {
		if d.Expression == nil || d.EvalContext == nil {
			continue
		}
		secrets := expressionSecrets(d.Expression, d.EvalContext)
		if len(secrets) == 0 {
			continue
		}
		d.Summary = marks.RedactText(d.Summary, secrets)
		d.Detail = marks.RedactText(d.Detail, secrets)
	}
}

// expressionSecrets returns the texts of the sensitive values of expr (if
// it has a value), of those it refers to, and of its arguments when it is a
// function call.
func expressionSecrets(expr hcl.Expression, ctx *hcl.EvalContext) []string {
	var secrets []string
	add := func(v cty.Value) {
		for _, s := range marks.Secrets(v) {
			secrets = appendNew(secrets, s)
		}
	}
	if v, diags := expr.Value(ctx); !diags.HasErrors() {
		add(v)
	}
	for _, t := range expr.Variables() {
		if v, diags := t.TraverseAbs(ctx); !diags.HasErrors() {
			add(v)
		}
	}
	if call, ok := expr.(*hclsyntax.FunctionCallExpr); ok {
		for _, arg := range call.Args {
			if v, diags := arg.Value(ctx); !diags.HasErrors() {
				add(v)
			}
		}
	}
	return secrets
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
