package testrun

import (
	"crypto/rand"
	"fmt"
	"maps"
	"slices"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
)

// mockValues are what stands for a provider's answer about one object of
// a mocked or overridden resource: the values given (an override's
// values, a mock_resource's defaults; nil for none) for its computed
// attributes, the others generated from the schema as Terraform generates
// them (strings of 8 random letters and digits, 0, false, empty
// collections, objects of such values), and when they are known: from the
// plan (override_during = plan) or only once applied.
type mockValues struct {
	given  map[string]cty.Value
	during config.OverrideTime
	// what names the block the values come from, in messages.
	what string
}

// check reports the given values that name no attribute of block.
func (mv mockValues) check(block *provider.Block, address diag.Address) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(mv.given)) {
		if block.Attributes[name] == nil && block.BlockTypes[name] == nil {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Error, Address: address,
				Summary: fmt.Sprintf("Invalid override for block field `%s`", name),
				Detail:  fmt.Sprintf("The field is unknown (%s). Please, ensure it is a part of resource definition.", mv.what)})
		}
	}
	return ds
}

// plan returns the planned object of a mocked create or update: proposed
// with each computed attribute it leaves null unknown, or given its value
// now with override_during = plan.
func (mv mockValues) plan(block *provider.Block, proposed cty.Value) (cty.Value, diag.Diagnostics) {
	return fill(block, proposed, mv.given, isNull, mv.during != config.DuringPlan)
}

// apply returns the new object of a mocked create or update: planned with
// each unknown computed attribute given its value.
func (mv mockValues) apply(block *provider.Block, planned cty.Value) (cty.Value, diag.Diagnostics) {
	return fill(block, planned, mv.given, isUnknown, false)
}

// read returns the object of a mocked data source: its configuration with
// each computed attribute it leaves null given its value.
func (mv mockValues) read(block *provider.Block, cfg cty.Value) (cty.Value, diag.Diagnostics) {
	return fill(block, cfg, mv.given, isNull, false)
}

func isNull(v cty.Value) bool    { return v.IsNull() }
func isUnknown(v cty.Value) bool { return !v.IsKnown() }

// fill returns obj (of block's type) with each computed attribute that
// pick selects replaced: by an unknown value when unknown is set, else by
// its value in given (converted to its type) or a generated value. Nested
// blocks are filled the same way, with the given values of the same name
// when they are objects.
func fill(block *provider.Block, obj cty.Value, given map[string]cty.Value, pick func(cty.Value) bool, unknown bool) (cty.Value, diag.Diagnostics) {
	if obj.IsNull() || !obj.IsKnown() {
		return obj, nil
	}
	var ds diag.Diagnostics
	vals := obj.AsValueMap()
	if vals == nil {
		vals = map[string]cty.Value{}
	}
	for name, a := range block.Attributes {
		cur, ok := vals[name]
		if !ok || !a.Computed || !pick(cur) {
			continue
		}
		ty := a.ImpliedType()
		switch g, has := given[name]; {
		case unknown:
			vals[name] = cty.UnknownVal(ty)
		case has:
			v, err := convert.Convert(g, ty)
			if err != nil {
				ds = ds.Append(diag.Errorf("Failed to compute attribute", "The value given for %q is not a %s: %s.", name, ty.FriendlyName(), err))
				v = generated(ty)
			}
			vals[name] = v
		default:
			vals[name] = generated(ty)
		}
	}
	for name, nb := range block.BlockTypes {
		cur, ok := vals[name]
		if !ok || cur.IsNull() || !cur.IsKnown() {
			continue
		}
		var sub map[string]cty.Value
		if g, has := given[name]; has && g.Type().IsObjectType() && !g.IsNull() {
			sub = g.AsValueMap()
		}
		nested := func(v cty.Value) cty.Value {
			out, more := fill(&nb.Block, v, sub, pick, unknown)
			ds = ds.Append(more)
			return out
		}
		switch nb.Nesting {
		case provider.NestingSingle, provider.NestingGroup:
			vals[name] = nested(cur)
		case provider.NestingList, provider.NestingSet:
			if cur.LengthInt() == 0 {
				continue
			}
			var elems []cty.Value
			for it := cur.ElementIterator(); it.Next(); {
				_, e := it.Element()
				elems = append(elems, nested(e))
			}
			if nb.Nesting == provider.NestingSet {
				vals[name] = cty.SetVal(elems)
			} else if cur.Type().IsTupleType() {
				vals[name] = cty.TupleVal(elems)
			} else {
				vals[name] = cty.ListVal(elems)
			}
		case provider.NestingMap:
			if cur.LengthInt() == 0 {
				continue
			}
			m := map[string]cty.Value{}
			for it := cur.ElementIterator(); it.Next(); {
				k, e := it.Element()
				m[k.AsString()] = nested(e)
			}
			if cur.Type().IsObjectType() {
				vals[name] = cty.ObjectVal(m)
			} else {
				vals[name] = cty.MapVal(m)
			}
		}
	}
	return cty.ObjectVal(vals), ds
}

// generated is the value Terraform generates for a computed attribute of
// type ty that nothing gives a value.
func generated(ty cty.Type) cty.Value {
	switch {
	case ty == cty.String:
		return cty.StringVal(randomString(8))
	case ty == cty.Number:
		return cty.Zero
	case ty == cty.Bool:
		return cty.False
	case ty.IsListType():
		return cty.ListValEmpty(ty.ElementType())
	case ty.IsSetType():
		return cty.SetValEmpty(ty.ElementType())
	case ty.IsMapType():
		return cty.MapValEmpty(ty.ElementType())
	case ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for name, aty := range ty.AttributeTypes() {
			attrs[name] = generated(aty)
		}
		return cty.ObjectVal(attrs)
	case ty.IsTupleType():
		var elems []cty.Value
		for _, ety := range ty.TupleElementTypes() {
			elems = append(elems, generated(ety))
		}
		return cty.TupleVal(elems)
	}
	return cty.NullVal(ty)
}

const mockChars = "abcdefghijklmnopqrstuvwxyz0123456789"

func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = mockChars[int(b[i])%len(mockChars)]
	}
	return string(b)
}
