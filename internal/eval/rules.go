package eval

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

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
//
// As in OpenTofu, the error message of a precondition or postcondition is
// evaluated first, whatever the condition's result: one that is invalid
// (an error, null, not a string) is an error even when the condition
// holds. A variable's validation evaluates its message too, but judges it
// only when the condition fails (validationFailure).
func CheckRule(scope *lang.Scope, rule *config.CheckRule, summary, suffix string, at RuleAt) diag.Diagnostics {
	if at.Type == checks.Validation {
		return checkValidation(scope, rule, summary, suffix, at)
	}
	msg, ds := conditionMessage(scope, rule)
	val, more := scope.EvalExpr(rule.Condition, cty.Bool)
	ds, failed := failure(rule, val, ds.Append(more), at)
	if !failed {
		return ds
	}
	at.report(checks.Fail, msg)
	d := diag.At(rule.Condition.Range(), summary, shownMessage(msg)+suffix)
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
// the result will be known after apply. An invalid condition, or an
// invalid error message (evaluated first, as CheckRule's), is an error.
// The result is recorded as at says.
func CheckAssert(scope *lang.Scope, rule *config.CheckRule, at RuleAt) diag.Diagnostics {
	msg, ds := conditionMessage(scope, rule)
	val, more := scope.EvalExpr(rule.Condition, cty.Bool)
	ds = ds.Append(more)
	if !more.HasErrors() && !val.IsKnown() {
		at.report(checks.Unknown, "")
		d := diag.WarningAt(rule.Condition.Range(), CheckAssertionUnknown,
			"The condition could not be evaluated at this time, a result will be known when this plan is applied.")
		d.Values = scope.ExpressionValues(rule.Condition)
		d.Difference = scope.EqualityDifference(rule.Condition)
		d.Apart = true
		return ds.Append(d)
	}
	ds, failed := failure(rule, val, ds, at)
	if !failed {
		return ds
	}
	at.report(checks.Fail, msg)
	d := diag.WarningAt(rule.Condition.Range(), CheckAssertionFailed, shownMessage(msg))
	d.Values = scope.ExpressionValues(rule.Condition)
	d.Difference = scope.EqualityDifference(rule.Condition)
	d.Apart = true
	return ds.Append(d)
}

// invalidMessageFailure is what a failed condition says when its error
// message cannot be shown (the diagnostics beside it say why), as
// OpenTofu words it.
const invalidMessageFailure = "This check failed, but has an invalid error message as described in the other accompanying messages."

// shownMessage is the detail of a failed condition whose error message is
// msg ("" when it cannot be shown).
func shownMessage(msg string) string {
	if msg == "" {
		return invalidMessageFailure
	}
	return msg
}

// failure judges val, the value of rule's condition (ds the diagnostics so
// far), reporting to at a result other than a failure: failed is true
// only when the condition is known to be false, which the caller reports
// with its message. A condition over sensitive or ephemeral values is
// judged like any other: its result says nothing of them.
func failure(rule *config.CheckRule, val cty.Value, ds diag.Diagnostics, at RuleAt) (diag.Diagnostics, bool) {
	if ds.HasErrors() {
		at.report(checks.Error, "")
		return ds, false
	}
	if !val.IsKnown() {
		at.report(checks.Unknown, "")
		return ds, false
	}
	val, _ = val.UnmarkDeep()
	if val.IsNull() {
		at.report(checks.Error, "")
		return ds.Append(diag.At(rule.Condition.Range(), "Invalid condition result", "Condition expression must return either true or false, not null.")), false
	}
	if val.True() {
		at.report(checks.Pass, "")
		return ds, false
	}
	return ds, true
}

// conditionMessage evaluates the error message of a precondition,
// postcondition or check assertion, as OpenTofu does before the
// condition: the message, trimmed, or "" when it cannot be shown, with
// the diagnostics that say why. An error evaluating it, a value that is
// not a string or is null, is an error; a sensitive or ephemeral one a
// warning; an unknown one is nothing yet (it is evaluated again at apply).
func conditionMessage(scope *lang.Scope, rule *config.CheckRule) (string, diag.Diagnostics) {
	if rule.ErrorMessage == nil {
		return "(no error message)", nil
	}
	v, ds := scope.EvalExpr(rule.ErrorMessage, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return "", ds
	}
	m, err := convert.Convert(v, cty.String)
	switch {
	case err != nil:
		return "", ds.Append(invalidMessage(scope, rule, fmt.Sprintf("Unsuitable value for error message: %s.", diag.FormatError(err))))
	case !m.IsKnown():
		return "", ds
	case m.IsNull():
		return "", ds.Append(invalidMessage(scope, rule, "Unsuitable value for error message: must not be null."))
	case marks.Contains(m):
		return "", ds.Append(diag.WarningAt(rule.ErrorMessage.Range(), sensitiveMessageSummary,
			"The error expression used to explain this condition refers to sensitive values, so rig will not display the resulting message.\n\n"+sensitiveMessageAdvice))
	case marks.ContainsEphemeral(m):
		return "", ds.Append(diag.WarningAt(rule.ErrorMessage.Range(), ephemeralMessageSummary,
			"The error expression used to explain this condition refers to ephemeral values, so rig will not display the resulting message.\n\n"+ephemeralMessageAdvice))
	}
	m, _ = m.UnmarkDeep()
	return strings.TrimSpace(m.AsString()), ds
}

// invalidMessage is the "Invalid error message" error at rule's message,
// which names the values of its references under its source line.
func invalidMessage(scope *lang.Scope, rule *config.CheckRule, detail string) diag.Diagnostic {
	d := diag.At(rule.ErrorMessage.Range(), "Invalid error message", detail)
	d.Values = scope.ExpressionValues(rule.ErrorMessage)
	return d
}

// checkValidation is CheckRule for a variable's validation, as OpenTofu
// evaluates one: the error message is evaluated with the condition, and
// an error doing so is reported whatever the result, but its value is
// judged only when the condition fails. Then a message not known yet is
// an error of its own, instead of the failure; one that is not a string,
// or is sensitive or ephemeral, is an error beside the failure, whose
// detail stands in for the message.
func checkValidation(scope *lang.Scope, rule *config.CheckRule, summary, suffix string, at RuleAt) diag.Diagnostics {
	val, ds := scope.EvalExpr(rule.Condition, cty.Bool)
	var m cty.Value
	var mds diag.Diagnostics
	if rule.ErrorMessage != nil {
		m, mds = scope.EvalExpr(rule.ErrorMessage, cty.DynamicPseudoType)
	}
	ds, failed := failure(rule, val, ds, at)
	ds = ds.Append(mds)
	if !failed {
		return ds
	}
	msg := "Failed to evaluate condition error message."
	switch {
	case rule.ErrorMessage == nil:
		msg = "(no error message)"
	case mds.HasErrors():
	case !m.IsKnown():
		at.report(checks.Fail, "")
		d := invalidMessage(scope, rule, "Value used in error message is not known and can not be used in error_message until after apply.")
		// As OpenTofu: its values not yet known are what it is about.
		d.UnknownCause = true
		return ds.Append(d)
	case m.IsNull():
	default:
		conv, err := convert.Convert(m, cty.String)
		switch {
		case err != nil:
			ds = ds.Append(invalidMessage(scope, rule, fmt.Sprintf("Unsuitable value for error message: %s.", diag.FormatError(err))))
		case marks.Contains(conv):
			ds = ds.Append(confidentialMessage(scope, rule, sensitiveMessageSummary,
				"The error expression used to explain this condition refers to sensitive values. rig will not display the resulting message.\n\n"+sensitiveMessageAdvice))
			msg = "The error message included a sensitive value, so it will not be displayed."
		case marks.ContainsEphemeral(conv):
			ds = ds.Append(confidentialMessage(scope, rule, ephemeralMessageSummary,
				"The error expression used to explain this condition refers to ephemeral values. rig will not display the resulting message.\n\n"+ephemeralMessageAdvice))
			msg = "The error message included an ephemeral value, so it will not be displayed."
		default:
			conv, _ = conv.UnmarkDeep()
			msg = strings.TrimSpace(conv.AsString())
		}
	}
	at.report(checks.Fail, msg)
	d := diag.At(rule.Condition.Range(), summary, msg+suffix)
	d.Values = scope.ExpressionValues(rule.Condition)
	d.Difference = scope.EqualityDifference(rule.Condition)
	return ds.Append(d)
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

// ErrorMessageErrors returns the errors of evaluating rule's error message
// as CheckRule and CheckAssert do (an error, null, not a string), for
// validation, where what it refers to is unknown: OpenTofu's validate
// reports those of check blocks' assertions.
func ErrorMessageErrors(scope *lang.Scope, rule *config.CheckRule) diag.Diagnostics {
	_, ds := conditionMessage(scope, rule)
	var out diag.Diagnostics
	for _, d := range ds {
		if d.Severity == diag.Error {
			out = append(out, d)
		}
	}
	return out
}
