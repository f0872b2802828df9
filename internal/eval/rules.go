package eval

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
)

// RuleAt says which condition a CheckRule or CheckAssert call evaluates,
// so that its result is recorded in Checks; the zero RuleAt records
// nothing.
type RuleAt struct {
	Checks *checks.State
	Object checks.Object
	Type   checks.RuleType
	Index  int
}

// report records the result of the condition in at.Checks.
func (at RuleAt) report(st checks.Status, msg string) {
	if at.Checks != nil {
		at.Checks.Report(at.Object, at.Type, at.Index, st, msg)
	}
}

// CheckRule evaluates a condition; a known false result is an error with the
// rule's error message. Unknown results pass (they are checked at apply).
// The result is recorded as at says.
func CheckRule(scope *lang.Scope, rule *config.CheckRule, summary, suffix string, at RuleAt) diag.Diagnostics {
	val, ds := scope.EvalExpr(rule.Condition, cty.Bool)
	ds, failed := failure(scope, rule, val, ds, at)
	if failed == nil {
		return unshownMessage(scope, rule, val, ds, at)
	}
	d := diag.At(rule.Condition.Range(), summary, *failed+suffix)
	d.Values = scope.ExpressionValues(rule.Condition)
	d.Difference = scope.EqualityDifference(rule.Condition)
	return ds.Append(d)
}

// The summaries of the warnings CheckAssert gives.
const (
	CheckAssertionFailed  = "Check block assertion failed"
	CheckAssertionUnknown = "Check block assertion known after apply"
)

// CheckAssert evaluates an assert block of a check block. A failure is
// never an error: a known false result is a "Check block assertion failed"
// warning with the rule's error message, and an unknown one a warning that
// the result will be known after apply. An invalid condition is an error.
// The result is recorded as at says.
func CheckAssert(scope *lang.Scope, rule *config.CheckRule, at RuleAt) diag.Diagnostics {
	val, ds := scope.EvalExpr(rule.Condition, cty.Bool)
	if !ds.HasErrors() && !val.IsKnown() {
		ds = unshownMessage(scope, rule, val, ds, at)
		at.report(checks.Unknown, "")
		d := diag.WarningAt(rule.Condition.Range(), CheckAssertionUnknown,
			"The condition could not be evaluated at this time, a result will be known when this plan is applied.")
		d.Values = scope.ExpressionValues(rule.Condition)
		d.Difference = scope.EqualityDifference(rule.Condition)
		d.Apart = true
		return ds.Append(d)
	}
	ds, failed := failure(scope, rule, val, ds, at)
	if failed == nil {
		return unshownMessage(scope, rule, val, ds, at)
	}
	d := diag.WarningAt(rule.Condition.Range(), CheckAssertionFailed, *failed)
	d.Values = scope.ExpressionValues(rule.Condition)
	d.Difference = scope.EqualityDifference(rule.Condition)
	d.Apart = true
	return ds.Append(d)
}

// failure judges val, the value of rule's condition (ds its diagnostics),
// returning the rule's error message when it is known to be false; nil when
// it holds, is unknown or is invalid (the diagnostics then say why). It
// records the result as at says.
//
// A condition over sensitive or ephemeral values is judged like any
// other: its result says nothing of them. An error message that is itself
// sensitive or ephemeral is not shown, as OpenTofu words it: for a
// variable's validation an error and a stand-in message, for any other
// condition a warning and a message that points to it.
func failure(scope *lang.Scope, rule *config.CheckRule, val cty.Value, ds diag.Diagnostics, at RuleAt) (diag.Diagnostics, *string) {
	if ds.HasErrors() {
		at.report(checks.Error, "")
		return ds, nil
	}
	if !val.IsKnown() {
		at.report(checks.Unknown, "")
		return ds, nil
	}
	val, _ = val.UnmarkDeep()
	if val.IsNull() {
		at.report(checks.Error, "")
		return ds.Append(diag.At(rule.Condition.Range(), "Invalid condition result", "Condition expression must return either true or false, not null.")), nil
	}
	if val.True() {
		at.report(checks.Pass, "")
		return ds, nil
	}
	msg := "(no error message)"
	if rule.ErrorMessage != nil {
		m, more := scope.EvalExpr(rule.ErrorMessage, cty.String)
		ds = ds.Append(more)
		switch {
		case more.HasErrors() || !m.IsKnown() || m.IsNull():
		case marks.Contains(m) && at.Type == checks.Validation:
			ds = ds.Append(confidentialMessage(scope, rule, sensitiveMessageSummary,
				"The error expression used to explain this condition refers to sensitive values. rig will not display the resulting message.\n\n"+sensitiveMessageAdvice))
			msg = "The error message included a sensitive value, so it will not be displayed."
		case marks.Contains(m):
			ds = ds.Append(diag.WarningAt(rule.ErrorMessage.Range(), sensitiveMessageSummary,
				"The error expression used to explain this condition refers to sensitive values, so rig will not display the resulting message.\n\n"+sensitiveMessageAdvice))
			// The check's result records no message, as in OpenTofu.
			at.report(checks.Fail, "")
			msg = "This check failed, but has an invalid error message as described in the other accompanying messages."
			return ds, &msg
		case marks.ContainsEphemeral(m) && at.Type == checks.Validation:
			ds = ds.Append(confidentialMessage(scope, rule, ephemeralMessageSummary,
				"The error expression used to explain this condition refers to ephemeral values. rig will not display the resulting message.\n\n"+ephemeralMessageAdvice))
			msg = "The error message included an ephemeral value, so it will not be displayed."
		case marks.ContainsEphemeral(m):
			ds = ds.Append(diag.WarningAt(rule.ErrorMessage.Range(), ephemeralMessageSummary,
				"The error expression used to explain this condition refers to ephemeral values, so rig will not display the resulting message.\n\n"+ephemeralMessageAdvice))
			at.report(checks.Fail, "")
			msg = "This check failed, but has an invalid error message as described in the other accompanying messages."
			return ds, &msg
		default:
			m, _ = m.UnmarkDeep()
			msg = m.AsString()
		}
	}
	at.report(checks.Fail, msg)
	return ds, &msg
}

// unshownMessage adds to ds, the diagnostics of a condition that did not
// fail (val its value), the warning that its error message refers to
// sensitive or ephemeral values, which OpenTofu gives whatever the result,
// having evaluated the message first: a failed condition gives it with
// its failure. A variable's validation evaluates its message only when it
// fails, as in OpenTofu; an invalid condition gives only its errors.
func unshownMessage(scope *lang.Scope, rule *config.CheckRule, val cty.Value, ds diag.Diagnostics, at RuleAt) diag.Diagnostics {
	if at.Type == checks.Validation || rule.ErrorMessage == nil || ds.HasErrors() || (val.IsKnown() && val.IsNull()) {
		return ds
	}
	m, more := scope.EvalExpr(rule.ErrorMessage, cty.String)
	switch {
	case more.HasErrors() || !m.IsKnown() || m.IsNull():
	case marks.Contains(m):
		return append(diag.Diagnostics{diag.WarningAt(rule.ErrorMessage.Range(), sensitiveMessageSummary,
			"The error expression used to explain this condition refers to sensitive values, so rig will not display the resulting message.\n\n"+sensitiveMessageAdvice)}, ds...)
	case marks.ContainsEphemeral(m):
		return append(diag.Diagnostics{diag.WarningAt(rule.ErrorMessage.Range(), ephemeralMessageSummary,
			"The error expression used to explain this condition refers to ephemeral values, so rig will not display the resulting message.\n\n"+ephemeralMessageAdvice)}, ds...)
	}
	return ds
}

// confidentialMessage is the error that a validation's error message
// refers to sensitive or ephemeral values, which names them under its
// source line ("var.pw has a sensitive value"), as OpenTofu does.
func confidentialMessage(scope *lang.Scope, rule *config.CheckRule, summary, detail string) diag.Diagnostic {
	d := diag.At(rule.ErrorMessage.Range(), summary, detail)
	d.Values = scope.ExpressionValues(rule.ErrorMessage)
	d.ConfidentialCause = true
	return d
}

const (
	sensitiveMessageSummary = "Error message refers to sensitive values"
	sensitiveMessageAdvice  = "You can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data."
	ephemeralMessageSummary = "Error message refers to ephemeral values"
	ephemeralMessageAdvice  = "You can correct this by removing references to ephemeral values or by utilizing the builtin ephemeralasnull() function."
)

// WithoutCheckAssertions returns ds without the warnings of check block
// assertions (CheckAssertionFailed, CheckAssertionUnknown): those of a
// plan that is applied at once, which the apply evaluates and reports
// again.
func WithoutCheckAssertions(ds diag.Diagnostics) diag.Diagnostics {
	out := ds[:0:0]
	for _, d := range ds {
		if d.Severity == diag.Warning && (d.Summary == CheckAssertionFailed || d.Summary == CheckAssertionUnknown) {
			continue
		}
		out = append(out, d)
	}
	return out
}
