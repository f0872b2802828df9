package lang

import (
	"fmt"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/marks"
)

const (
	countUnknownDetail = "The \"count\" value depends on resource attributes that are only known after apply, so rig cannot know yet how many instances to plan.\n\n" +
		"Make the count depend only on values known before apply (variables, locals, literals), or create what it depends on in an earlier apply."
	forEachUnknownMapDetail = "The \"for_each\" map has keys derived from resource attributes that are only known after apply, so rig cannot know yet which instances to plan.\n\n" +
		"Keep the keys of a for_each map known before apply (from variables, locals or literals) and put values known only after apply in the map's values.\n\n" + forEachTargetHint
	forEachUnknownSetDetail = "The \"for_each\" set has elements derived from resource attributes that are only known after apply, so rig cannot know yet which instances to plan.\n\n" +
		"Use a map whose keys are known before apply (from variables, locals or literals), with the values known only after apply in the map's values.\n\n" + forEachTargetHint
	forEachTargetHint = "Otherwise, create what for_each depends on in an earlier apply."
)

// DefaultMaxInstances is how many instances one count or for_each argument
// may make unless Scope.MaxInstances says otherwise (rig.hcl's
// max_instances).
const DefaultMaxInstances = 100_000

func (s *Scope) maxInstances() int {
	if s.MaxInstances > 0 {
		return s.MaxInstances
	}
	return DefaultMaxInstances
}

// tooManyInstances is the error of a count or for_each argument (the
// meta-argument arg) that makes n instances (n < 0: too many to say), more
// than max.
func tooManyInstances(rng hcl.Range, arg string, n int64, max int) diag.Diagnostic {
	many := "more instances"
	if n >= 0 {
		many = fmt.Sprintf("%d instances", n)
	}
	return diag.At(rng, "Too many instances", fmt.Sprintf(
		"The %q argument makes %s, more than the %d that rig allows for one resource or module block. "+
			"If so many are intended, raise the limit with max_instances = N in rig.hcl beside the configuration.", arg, many, max))
}

// EvalCount evaluates a count argument to a whole number of instances. It
// returns -1 with error diagnostics ("Invalid count argument") when the
// value is unknown, null, negative or not a whole number, ("Too many
// instances") when it is above the scope's MaxInstances, and -1 without
// diagnostics when expr is nil (no count).
func EvalCount(s *Scope, expr hcl.Expression) (int, diag.Diagnostics) {
	if expr == nil {
		return -1, nil
	}
	v, diags := s.EvalExpr(expr, cty.Number)
	if diags.HasErrors() {
		return -1, diags
	}
	if marks.ContainsEphemeral(v) {
		return -1, append(diags, diag.At(expr.Range(), "Invalid count argument", ephemeralCountDetail))
	}
	v, _ = v.UnmarkDeep() // a sensitive count does not disclose anything
	invalid := func(detail string) (int, diag.Diagnostics) {
		return -1, append(diags, diag.At(expr.Range(), "Invalid count argument", detail))
	}
	switch {
	case v.IsNull():
		return invalid(`The given "count" argument value is null. An integer is required.`)
	case !v.IsKnown():
		return invalid(countUnknownDetail)
	}
	if bf := v.AsBigFloat(); bf.IsInt() && bf.Cmp(new(big.Float).SetInt64(int64(s.maxInstances()))) > 0 {
		// Not bf.Text: formatting a number with a huge exponent takes
		// as long as writing out all its digits.
		n, acc := bf.Int64()
		if acc != big.Exact {
			n = -1
		}
		return -1, append(diags, tooManyInstances(expr.Range(), "count", n, s.maxInstances()))
	}
	var n int
	if err := gocty.FromCtyValue(v, &n); err != nil {
		return invalid(fmt.Sprintf(`The given "count" argument value is unsuitable: %s.`, err))
	}
	if n < 0 {
		return invalid(`The given "count" argument value is unsuitable: must be greater than or equal to zero.`)
	}
	return n, diags
}

// EvalForEach evaluates a for_each argument to the instances' each.value by
// each.key. A map or object gives its elements; a set of strings gives each
// string for itself. It returns nil with error diagnostics ("Invalid
// for_each argument") for an unknown, null or sensitive value, another type,
// or a set of non-strings, ("Too many instances") for more elements than
// the scope's MaxInstances; nil without diagnostics when expr is nil.
func EvalForEach(s *Scope, expr hcl.Expression) (map[string]cty.Value, diag.Diagnostics) {
	if expr == nil {
		return nil, nil
	}
	refs, diags := cachedReferences(expr)
	ctx, ctxDiags := s.EvalContext(refs)
	diags = append(diags, ctxDiags...)
	if diags.HasErrors() {
		return nil, diags
	}
	v, hdiags := expr.Value(ctx)
	s.ProviderFunctions.explainUnknown(hdiags)
	redactDiagnostics(hdiags)
	diags = diags.Append(diag.FromHCL(hdiags))
	if diags.HasErrors() {
		return nil, diags
	}
	v, more := ExtractDeprecations(v, expr.Range())
	if !s.QuietDeprecations {
		diags = diags.Append(more)
	}
	// As OpenTofu's, the diagnostics show the values of the references,
	// saying of a sensitive, ephemeral or unknown one that it is, when
	// that is the problem.
	invalidBecause := func(detail string, confidential, unknown bool) (map[string]cty.Value, diag.Diagnostics) {
		d := diag.At(expr.Range(), "Invalid for_each argument", detail)
		d.Values, d.ConfidentialCause, d.UnknownCause = diag.TraversalValues(expr, ctx), confidential, unknown
		return nil, append(diags, d)
	}
	invalid := func(detail string) (map[string]cty.Value, diag.Diagnostics) {
		return invalidBecause(detail, false, false)
	}
	// A sensitive or ephemeral value is the cause, and its diagnostic
	// names the values that have one ("var.x has an ephemeral value"), as
	// OpenTofu's does.
	confidential := func(detail string) (map[string]cty.Value, diag.Diagnostics) {
		return invalidBecause(detail, true, false)
	}
	const allowed = "map, or set of strings"

	if marks.ContainsEphemeral(v) {
		return confidential(ephemeralForEachDetail)
	}
	if v.IsMarked() {
		return confidential(sensitiveForEachDetail)
	}
	ty := v.Type()
	if v.IsKnown() && !ty.IsMapType() && !ty.IsSetType() && !ty.IsObjectType() {
		return invalid(fmt.Sprintf(`The given "for_each" argument value is unsuitable: the "for_each" argument must be a %s, and you have provided a value of type %s.`, allowed, ty.FriendlyName()))
	}
	switch {
	case v.IsNull():
		return invalid(fmt.Sprintf(`The given "for_each" argument value is unsuitable: the given "for_each" argument value is null. A %s is allowed.`, allowed))
	case !v.IsKnown():
		if ty.IsSetType() {
			return invalidBecause(forEachUnknownSetDetail, false, true)
		}
		return invalidBecause(forEachUnknownMapDetail, false, true)
	}

	if n := v.LengthInt(); n > s.maxInstances() {
		return nil, append(diags, tooManyInstances(expr.Range(), "for_each", int64(n), s.maxInstances()))
	}
	out := make(map[string]cty.Value, v.LengthInt())
	if !ty.IsSetType() {
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			out[k.AsString()] = e
		}
		return out, diags
	}
	if !v.IsWhollyKnown() {
		return invalidBecause(forEachUnknownSetDetail, false, true)
	}
	if v.LengthInt() == 0 {
		return out, diags
	}
	if ty.ElementType() != cty.String {
		return invalid(fmt.Sprintf(`The given "for_each" argument value is unsuitable: "for_each" supports sets of strings, but you have provided a set containing type %s.`, ty.ElementType().FriendlyName()))
	}
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() {
			return invalid(`The given "for_each" argument value is unsuitable: "for_each" sets must not contain null values.`)
		}
		if e.IsMarked() {
			return confidential(sensitiveForEachDetail)
		}
		out[e.AsString()] = e
	}
	return out, diags
}

// EvalEnabled evaluates a lifecycle.enabled argument (OpenTofu 1.11):
// whether the resource or module call has its one instance. It returns
// false with error diagnostics ("Invalid enabled argument") for a value
// that is sensitive, null, unknown or not a bool, as OpenTofu does.
func EvalEnabled(s *Scope, expr hcl.Expression) (bool, diag.Diagnostics) {
	v, diags := s.EvalExpr(expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return false, diags
	}
	invalid := func(detail string) (bool, diag.Diagnostics) {
		return false, append(diags, diag.At(expr.Range(), "Invalid enabled argument", detail))
	}
	if marks.ContainsEphemeral(v) {
		return invalid(`The given "enabled" argument value is unsuitable: the given value is ephemeral.`)
	}
	if v.HasMark(Sensitive) {
		return invalid(`Sensitive values, or values derived from sensitive values, cannot be used in "enabled" arguments. If used, the sensitive value would be exposed by whether an instance is present.`)
	}
	v, _ = v.UnmarkDeep()
	switch {
	case v.IsNull():
		return invalid(`The given "enabled" argument value is unsuitable: the given value is null.`)
	case !v.IsKnown():
		return invalid(`The given "enabled" argument value is derived from a value that won't be known until the apply phase, so rig cannot determine whether an instance of this object is declared or not.`)
	}
	b, err := convert.Convert(v, cty.Bool)
	if err != nil {
		return invalid(fmt.Sprintf(`The given "enabled" argument value is unsuitable: %s.`, formatError(err)))
	}
	return b.True(), diags
}

// The details of the diagnostics for an ephemeral count or for_each, or a
// sensitive for_each, as OpenTofu words them.
const (
	ephemeralCountDetail   = "Ephemeral values, or values derived from ephemeral values, cannot be used as count arguments. If used, the ephemeral value could be exposed as a resource instance key."
	ephemeralForEachDetail = "Ephemeral values, or values derived from ephemeral values, cannot be used as for_each arguments. If used, the ephemeral value could be exposed as a resource instance key."
	sensitiveForEachDetail = "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key."
)
