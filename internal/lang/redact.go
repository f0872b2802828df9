package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rig-iac/rig/internal/marks"
)

// redactDiagnostics keeps sensitive and ephemeral values out of the
// diagnostics of an evaluation: in each diagnostic about an expression
// (one hcl gives with the expression and its evaluation context: a
// function that failed, an operand of the wrong type), every text such a
// value the expression refers to or passes to the failed function has is
// replaced by "(sensitive value)", "(ephemeral value)" or, for one that
// is both, "(ephemeral sensitive value)", as OpenTofu's functions word
// them. Functions that know an argument is sensitive or ephemeral word
// their errors without it (tonumber's "cannot convert this ephemeral
// string"); this catches those that do not, such as the library's
// parseint or a provider-defined function quoting its argument. ds is
// changed in place.
func redactDiagnostics(ds hcl.Diagnostics) {
	for _, d := range ds {
		if d.Expression == nil || d.EvalContext == nil {
			continue
		}
		secrets := expressionSecrets(d.Expression, d.EvalContext)
		if _, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallDiagExtra](d); ok {
			// The expression of a function's error may be the argument at
			// fault (lookup's map) while another argument (its key) is
			// what the message quotes: all the values the call could see
			// are kept out.
			contextSecrets(d.EvalContext, secrets)
		}
		if len(secrets) == 0 {
			continue
		}
		d.Summary = marks.RedactTextByKind(d.Summary, secrets)
		d.Detail = marks.RedactTextByKind(d.Detail, secrets)
	}
}

// expressionSecrets returns the texts of the sensitive and ephemeral
// values of expr (if it has a value), of those it refers to, and of its
// arguments when it is a function call.
func expressionSecrets(expr hcl.Expression, ctx *hcl.EvalContext) map[string]marks.SecretKind {
	secrets := map[string]marks.SecretKind{}
	if v, diags := expr.Value(ctx); !diags.HasErrors() {
		marks.AddSecrets(secrets, v)
	}
	for _, t := range expr.Variables() {
		if v, diags := t.TraverseAbs(ctx); !diags.HasErrors() {
			marks.AddSecrets(secrets, v)
		}
	}
	if call, ok := expr.(*hclsyntax.FunctionCallExpr); ok {
		for _, arg := range call.Args {
			if v, diags := arg.Value(ctx); !diags.HasErrors() {
				marks.AddSecrets(secrets, v)
			}
		}
	}
	return secrets
}

// contextSecrets adds the secrets of the variables of ctx and of the
// contexts it is a child of.
func contextSecrets(ctx *hcl.EvalContext, secrets map[string]marks.SecretKind) {
	for ; ctx != nil; ctx = ctx.Parent() {
		for _, v := range ctx.Variables {
			marks.AddSecrets(secrets, v)
		}
	}
}
