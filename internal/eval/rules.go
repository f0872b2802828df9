package eval

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// CheckRule evaluates a condition; a known false result is an error with the
// rule's error message. Unknown results pass (they are checked at apply).
func CheckRule(scope *lang.Scope, rule *config.CheckRule, summary, suffix string) diag.Diagnostics {
	val, ds := scope.EvalExpr(rule.Condition, cty.Bool)
	if ds.HasErrors() || !val.IsKnown() {
		return ds
	}
	if val.IsNull() {
		return ds.Append(diag.At(rule.Condition.Range(), "Invalid condition result", "Condition expression must return either true or false, not null."))
	}
	if val.True() {
		return ds
	}
	msg := "(no error message)"
	if rule.ErrorMessage != nil {
		m, more := scope.EvalExpr(rule.ErrorMessage, cty.String)
		ds = ds.Append(more)
		if !more.HasErrors() && m.IsKnown() && !m.IsNull() {
			msg = m.AsString()
		}
	}
	return ds.Append(diag.At(rule.Condition.Range(), summary, msg+suffix))
}
