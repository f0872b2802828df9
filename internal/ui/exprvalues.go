package ui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/jsonformat"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
)

// exprStatements returns what a diagnostic says of each value of its
// expression ("is \"x\"", "is a string"), sorted by traversal, in the form
// OpenTofu's diagnostics give them. As in OpenTofu, a diagnostic that a
// sensitive or an unknown value did not cause (a failed condition) leaves
// a sensitive value out, unless showSensitive, and gives only the type of
// an unknown one, so that no one takes either for the cause.
func exprStatements(values []diag.ExprValue, showSensitive, confidentialCause, unknownCause bool) []jsonformat.ExpressionValue {
	out := make([]jsonformat.ExpressionValue, 0, len(values))
	for _, v := range values {
		st := exprStatement(v.Value, showSensitive)
		if unknownCause {
			st = unknownStatement(v.Value, st)
		}
		if confidentialCause {
			st = confidentialStatement(v.Value, st)
		}
		if st != "" {
			out = append(out, jsonformat.ExpressionValue{Traversal: v.Traversal, Statement: st})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Traversal < out[j].Traversal })
	return out
}

// unknownStatement is what a diagnostic caused by values not yet known
// says of one value, as OpenTofu words it: that it is known only after
// apply, with what its type and length refinements tell; st, what any
// diagnostic says, for a known value or a sensitive or ephemeral one.
func unknownStatement(v cty.Value, st string) string {
	if marks.Has(v) || marks.IsEphemeral(v) {
		return st
	}
	v, _ = v.UnmarkDeep()
	if v.IsKnown() {
		return st
	}
	ty := v.Type()
	switch {
	case ty == cty.DynamicPseudoType:
		return "will be known only after apply"
	case ty.IsCollectionType():
		rng := v.Range()
		lo, hi := rng.LengthLowerBound(), rng.LengthUpperBound()
		const maxShown = 1024
		switch {
		case lo == hi:
			return fmt.Sprintf("is a %s of length %d, known only after apply", ty.FriendlyName(), lo)
		case lo != 0 && hi <= maxShown:
			return fmt.Sprintf("is a %s with between %d and %d elements, known only after apply", ty.FriendlyName(), lo, hi)
		case lo != 0:
			return fmt.Sprintf("is a %s with at least %d elements, known only after apply", ty.FriendlyName(), lo)
		case hi <= maxShown:
			return fmt.Sprintf("is a %s with up to %d elements, known only after apply", ty.FriendlyName(), hi)
		}
	}
	return fmt.Sprintf("is a %s, known only after apply", ty.FriendlyName())
}

// confidentialStatement is what a diagnostic caused by sensitive or
// ephemeral values says of one value, as OpenTofu words it: that it has
// one, never what it is; st, what any diagnostic says, otherwise.
func confidentialStatement(v cty.Value, st string) string {
	switch {
	case marks.Has(v):
		return "has a sensitive value"
	case marks.IsEphemeral(v):
		return "has an ephemeral value"
	}
	return st
}

// exprStatement is what a diagnostic says of one value; "" for nothing,
// which is what it says of an ephemeral value, as OpenTofu does.
func exprStatement(v cty.Value, showSensitive bool) string {
	if marks.ContainsEphemeral(v) {
		return ""
	}
	v, ms := v.Unmark()
	for m := range ms {
		if marks.IsSensitive(m) && !showSensitive {
			return ""
		}
	}
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() {
		if ty := v.Type(); ty != cty.DynamicPseudoType {
			return "is a " + ty.FriendlyName()
		}
		return ""
	}
	return "is " + compactValue(v)
}

// compactValue describes a value in a few words: primitives as written,
// collections and objects by their type and size (never their elements,
// which may be sensitive where the whole is not marked).
func compactValue(v cty.Value) string {
	ty := v.Type()
	switch {
	case v.IsNull():
		return "null"
	case ty == cty.Bool:
		if v.True() {
			return "true"
		}
		return "false"
	case ty == cty.Number:
		return v.AsBigFloat().Text('g', 10)
	case ty == cty.String:
		return fmt.Sprintf("%q", v.AsString())
	case ty.IsCollectionType() || ty.IsTupleType():
		switch n := v.LengthInt(); n {
		case 0:
			return "empty " + ty.FriendlyName()
		case 1:
			return ty.FriendlyName() + " with 1 element"
		default:
			return fmt.Sprintf("%s with %d elements", ty.FriendlyName(), n)
		}
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		switch len(attrs) {
		case 0:
			return "object with no attributes"
		case 1:
			for name := range attrs {
				return fmt.Sprintf("object with 1 attribute %q", name)
			}
		}
		return fmt.Sprintf("object with %d attributes", len(attrs))
	}
	return ty.FriendlyName()
}

// writeExprValues writes the values of a diagnostic's expression under its
// source lines, after the function whose call failed, as OpenTofu does.
func writeExprValues(b *strings.Builder, d diag.Diagnostic, o ropts) {
	statements := exprStatements(d.Values, o.showSensitive, d.ConfidentialCause, d.UnknownCause)
	call := callSignature(d.FunctionCall)
	if len(statements) == 0 && call == "" {
		return
	}
	b.WriteString(o.c("    [dark_gray]├────────────────[reset]\n"))
	if call != "" {
		fmt.Fprintf(b, o.c("    [dark_gray]│[reset] while calling [bold]%s[reset](%s)\n"), printable(d.FunctionCall.CalledAs), call)
	}
	for _, v := range statements {
		fmt.Fprintf(b, o.c("    [dark_gray]│[reset] [bold]%s[reset] %s\n"), printable(v.Traversal), printable(v.Statement))
	}
}

// writeExprDifference writes the two sides of a failed equality as a diff
// under the values of its expression, as OpenTofu 1.12 does: the left side
// before, the right side after; a sensitive side hides the whole diff, and
// there is none when a side is ephemeral.
func writeExprDifference(b *strings.Builder, d *diag.ExprDifference, o ropts) {
	if d == nil || ephemeralDifference(d) {
		return
	}
	b.WriteString(o.c("    [dark_gray]├────────────────[reset]\n"))
	b.WriteString(o.c("    [dark_gray]│[reset] [bold]Diff: [reset]\n"))
	for _, l := range strings.Split("    "+renderExprDifference(d, o), "\n") {
		fmt.Fprintf(b, o.c("    [dark_gray]│[reset] %s\n"), l)
	}
}

// ephemeralDifference reports whether either side of d holds an ephemeral
// value, which no view of the difference may show.
func ephemeralDifference(d *diag.ExprDifference) bool {
	return marks.ContainsEphemeral(d.Left) || marks.ContainsEphemeral(d.Right)
}

func renderExprDifference(d *diag.ExprDifference, o ropts) string {
	if !o.showSensitive && (marks.Has(d.Left) || marks.Has(d.Right)) {
		return marks.Redacted
	}
	var b strings.Builder
	outputDiff(&plan.OutputChange{Action: plan.Update, Before: d.Left, After: d.Right}).render(&b, 0, o)
	return b.String()
}

// differenceToJSON is a diagnostic's "difference", as OpenTofu 1.12 writes
// it: the left side as the value before, the right side as the value
// after, each with its sensitive paths. Sensitive parts are written as
// null (OpenTofu writes them out); nil when d is nil, has an ephemeral
// side or cannot be encoded.
func differenceToJSON(d *diag.ExprDifference) *jsonformat.Change {
	if d == nil || ephemeralDifference(d) {
		return nil
	}
	bset, aset := pathSet{}, pathSet{}
	before, after := redact(unmarkInto(d.Left, bset), bset), redact(unmarkInto(d.Right, aset), aset)
	body := &jsonformat.Change{}
	var err error
	if body.Before, err = marshalValue(before); err != nil {
		return nil
	}
	known, afterUnknown := after, cty.False
	if !after.IsWhollyKnown() {
		known, afterUnknown = omitUnknowns(after), unknownAsBool(after)
	}
	if !isNil(known) {
		if body.After, err = marshalValue(known); err != nil {
			return nil
		}
	}
	if body.AfterUnknown, err = marshalValue(afterUnknown); err != nil {
		return nil
	}
	if body.BeforeSensitive, err = marshalValue(sensitiveAsBool(before, nil, bset)); err != nil {
		return nil
	}
	if body.AfterSensitive, err = marshalValue(sensitiveAsBool(after, nil, aset)); err != nil {
		return nil
	}
	return body
}

// redact replaces the parts of v at the paths of set with nulls.
func redact(v cty.Value, set pathSet) cty.Value {
	if len(set) == 0 {
		return v
	}
	out, err := cty.Transform(v, func(p cty.Path, v cty.Value) (cty.Value, error) {
		if set.has(p) {
			return cty.NullVal(v.Type()), nil
		}
		return v, nil
	})
	if err != nil {
		return cty.NullVal(v.Type())
	}
	return out
}
