package instance

import (
	"fmt"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// CheckPlanned returns an error diagnostic for each way resp's planned object
// is not a valid plan from prior to config (see provider.AssertPlanValid).
// A provider using the legacy SDK type system is exempt: OpenTofu only logs
// its invalid plans, and rig drops them.
func CheckPlanned(sch *provider.Block, prior, config cty.Value, resp provider.PlanResponse, pc addrs.AbsProviderConfig, addr addrs.AbsResourceInstance) diag.Diagnostics {
	if resp.LegacyTypeSystem || resp.Checked {
		return nil
	}
	var ds diag.Diagnostics
	// Write-only arguments are never planned: their planned values are null.
	config = sch.NullWriteOnly(config)
	for _, err := range provider.AssertPlanValid(sch, prior, config, resp.PlannedState) {
		ds = ds.Append(diag.Diagnostic{Severity: diag.Error, Summary: "Provider produced invalid plan", Address: addr,
			Detail: fmt.Sprintf("Provider %q planned an invalid value for %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", pc.Provider.ForDisplay(), provider.ErrorAt(addr.String(), err))})
	}
	return ds
}

// changedPaths returns the paths among paths whose values differ between
// prior and planned, and those of schema's write-only attributes, whose
// values are always null: as OpenTofu and Terraform do, a provider that
// says one forces replacement is taken at its word.
func changedPaths(schema *provider.Block, paths []cty.Path, prior, planned cty.Value) []cty.Path {
	var out []cty.Path
	for _, path := range paths {
		if schema.WriteOnlyPath(path) {
			out = append(out, path)
			continue
		}
		pv, perr := path.Apply(prior)
		nv, nerr := path.Apply(planned)
		if perr != nil && nerr != nil {
			continue
		}
		if perr != nil || nerr != nil || !nv.IsKnown() || !pv.RawEquals(nv) {
			out = append(out, path)
		}
	}
	return out
}

// ValuesEqual reports whether two values are known to be equal.
func ValuesEqual(a, b cty.Value) bool {
	if a.RawEquals(b) {
		// The same value with the same marks, without unmarking either.
		return true
	}
	// Marks say how a value is shown, not what it is.
	a, _ = a.UnmarkDeep()
	b, _ = b.UnmarkDeep()
	if a.RawEquals(b) {
		// The common case of an unchanged object, without Equals' allocations.
		return true
	}
	eq := a.Equals(b)
	return eq.IsKnown() && eq.True()
}

// sameSensitivity reports whether the prior object, with the sensitive
// paths the state records, and the planned one, with the configuration's
// marks, are sensitive in the same places (the schema's paths count for
// both).
func sameSensitivity(blk *provider.Block, prior cty.Value, recorded []cty.Path, planned cty.Value, configMarks []cty.PathValueMarks) bool {
	if len(recorded) == 0 && len(configMarks) == 0 {
		// The common case, without walking the values: the schema's paths
		// are the same on both sides.
		return true
	}
	_, before := marks.Paths(plan.MarkRecorded(blk, prior, recorded))
	_, after := marks.Paths(blk.MarkSensitive(planned.MarkWithPaths(configMarks)))
	if len(before) != len(after) {
		return false
	}
	for _, p := range after {
		if !slices.ContainsFunc(before, p.Equals) {
			return false
		}
	}
	return true
}

// checkFinalPlan checks that every value known in the saved plan is the same
// in the final plan made at apply time.
//
// A value the saved plan has marked sensitive is not shown.
func checkFinalPlan(saved, final cty.Value) error {
	if finalMatches(saved, final) {
		// The common case, decided without building a path for every
		// value: the walk below only says what does not match.
		return nil
	}
	return finalPlanMismatch(saved, final)
}

// finalPlanMismatch is checkFinalPlan's walk, which names the first
// value of saved that final does not match.
func finalPlanMismatch(saved, final cty.Value) error {
	// Marks say how values are shown, not what they are.
	saved, hidden := marks.Paths(saved)
	final, _ = final.UnmarkDeep()
	show := func(path cty.Path, v cty.Value) string {
		for _, h := range hidden {
			if n := min(len(h), len(path)); cty.Path(h[:n]).Equals(path[:n]) {
				return marks.Redacted
			}
		}
		return fmt.Sprintf("%#v", v)
	}
	var bad error
	_ = cty.Walk(saved, func(path cty.Path, sv cty.Value) (bool, error) {
		if bad != nil {
			return false, nil
		}
		if !sv.IsKnown() {
			return false, nil
		}
		fv, err := path.Apply(final)
		if err != nil {
			bad = fmt.Errorf("%s is missing from the final plan", describePath(path))
			return false, nil
		}
		if !fv.IsKnown() {
			return false, nil
		}
		if sv.Type().IsPrimitiveType() || sv.IsNull() {
			if !sv.RawEquals(fv) && !(sv.IsNull() && fv.IsNull()) {
				bad = fmt.Errorf("planned value for %s was %s, but now %s", describePath(path), show(path, sv), show(path, fv))
			}
			return false, nil
		}
		if sv.Type().IsSetType() || sv.Type().IsListType() || sv.Type().IsTupleType() || sv.Type().IsMapType() {
			if whollyKnown(sv) && whollyKnown(fv) && !sv.RawEquals(fv) {
				bad = fmt.Errorf("planned value for %s does not match the final plan", describePath(path))
			}
			return false, nil
		}
		return true, nil
	})
	return bad
}

// finalMatches reports whether checkFinalPlan finds nothing wrong with
// final, the value at some path of the final plan, against saved, the value
// at that path of the saved plan. It visits what checkFinalPlan's walk
// visits, with the same rules, without paths; values with marks it
// compares with their marks, so that it may find a difference where the
// walk, which compares them without, finds none (never the reverse).
func finalMatches(saved, final cty.Value) bool {
	if !saved.IsKnown() || !final.IsKnown() {
		return true
	}
	ty := saved.Type()
	switch {
	case ty.IsPrimitiveType() || saved.IsNull():
		return rawEqual(saved, final) || (saved.IsNull() && final.IsNull())
	case ty.IsSetType() || ty.IsListType() || ty.IsTupleType() || ty.IsMapType():
		return !whollyKnown(saved) || !whollyKnown(final) || rawEqual(saved, final)
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			sv := saved.GetAttr(name)
			if !sv.IsKnown() {
				continue
			}
			// Where the walk fails to find the attribute in the final plan.
			if final.IsNull() || !final.Type().IsObjectType() || !final.Type().HasAttribute(name) {
				return false
			}
			if !finalMatches(sv, final.GetAttr(name)) {
				return false
			}
		}
	}
	return true
}

// describePath names the part of an object a path leads to in messages.
func describePath(path cty.Path) string {
	if len(path) == 0 {
		return "the object"
	}
	return diag.FormatPath(path)
}

// anyWriteOnly reports whether one of paths leads into a write-only
// attribute of schema.
func anyWriteOnly(schema *provider.Block, paths []cty.Path) bool {
	for _, p := range paths {
		if schema.WriteOnlyPath(p) {
			return true
		}
	}
	return false
}
