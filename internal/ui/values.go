package ui

import (
	"sort"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// isNil reports whether v is absent (cty.NilVal) or a known null.
func isNil(v cty.Value) bool { return v == cty.NilVal || v.IsNull() }

// numberString formats a known number as the JSON forms write it.
func numberString(v cty.Value) string { return v.AsBigFloat().Text('f', -1) }

// valueKey is a canonical string for v, equal for values that have equal
// JSON representations (object and map alike, list, tuple and set alike);
// unknowns have their own token. It is used for equality and as a map key.
func valueKey(v cty.Value) string {
	var b strings.Builder
	writeValueKey(&b, v)
	return b.String()
}

func writeValueKey(b *strings.Builder, v cty.Value) {
	switch {
	case v == cty.NilVal || v.IsNull():
		b.WriteString("null")
		return
	case !v.IsKnown():
		b.WriteString("?")
		return
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		b.WriteString(strconv.Quote(v.AsString()))
	case ty == cty.Number:
		b.WriteString(numberString(v))
	case ty == cty.Bool:
		b.WriteString(strconv.FormatBool(v.True()))
	case ty.IsObjectType() || ty.IsMapType():
		b.WriteByte('{')
		for i, k := range mapKeys(v) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			writeValueKey(b, mapGet(v, k))
		}
		b.WriteByte('}')
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		b.WriteByte('[')
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			_, ev := it.Element()
			writeValueKey(b, ev)
		}
		b.WriteByte(']')
	default:
		b.WriteString("?" + ty.FriendlyName())
	}
}

// mapKeys returns the sorted attribute names or keys of a known, non-null
// object or map.
func mapKeys(v cty.Value) []string {
	if isNil(v) || !v.IsKnown() {
		return nil
	}
	ty := v.Type()
	var keys []string
	if ty.IsObjectType() {
		for k := range ty.AttributeTypes() {
			keys = append(keys, k)
		}
	} else if ty.IsMapType() {
		for it := v.ElementIterator(); it.Next(); {
			k, _ := it.Element()
			keys = append(keys, k.AsString())
		}
	}
	sort.Strings(keys)
	return keys
}

// mapGet returns attribute or element k of an object or map; cty.NilVal
// when v is absent, null, unknown or has no such key.
func mapGet(v cty.Value, k string) cty.Value {
	if isNil(v) || !v.IsKnown() {
		return cty.NilVal
	}
	ty := v.Type()
	if ty.IsObjectType() {
		if !ty.HasAttribute(k) {
			return cty.NilVal
		}
		return v.GetAttr(k)
	}
	if ty.IsMapType() {
		kv := cty.StringVal(k)
		if !v.HasIndex(kv).True() {
			return cty.NilVal
		}
		return v.Index(kv)
	}
	return cty.NilVal
}

// stepFor returns the path step that selects k in v: an attribute of an
// object, an index of a map.
func stepFor(v cty.Value, p cty.Path, k string) cty.Path {
	if v != cty.NilVal && v.Type().IsMapType() {
		return indexStep(p, cty.StringVal(k))
	}
	return attrStep(p, k)
}

// elements returns the elements of a known, non-null sequence or set with
// their path keys; nil for anything else.
func elements(v cty.Value) (keys, vals []cty.Value) {
	if isNil(v) || !v.IsKnown() || !v.CanIterateElements() || v.Type().IsObjectType() || v.Type().IsMapType() {
		return nil, nil
	}
	keys = []cty.Value{}
	vals = []cty.Value{}
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		keys = append(keys, k)
		vals = append(vals, ev)
	}
	return keys, vals
}

// omitUnknowns returns v without its unknown parts, for JSON: unknown
// attributes and map elements are dropped, unknown sequence elements become
// null; sequences become tuples and mappings objects. cty.NilVal for a wholly
// unknown v.
func omitUnknowns(v cty.Value) cty.Value {
	ty := v.Type()
	switch {
	case v.IsNull():
		return v
	case !v.IsKnown():
		return cty.NilVal
	case ty.IsPrimitiveType():
		return v
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		var vals []cty.Value
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			nv := omitUnknowns(ev)
			if nv == cty.NilVal {
				nv = cty.NullVal(ev.Type())
			}
			vals = append(vals, nv)
		}
		return cty.TupleVal(vals)
	case ty.IsMapType() || ty.IsObjectType():
		vals := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if nv := omitUnknowns(ev); nv != cty.NilVal {
				vals[k.AsString()] = nv
			}
		}
		return cty.ObjectVal(vals)
	}
	return v
}

// unknownAsBool mirrors v with true where it is unknown; known leaves are
// false, and false entries of mappings are omitted.
func unknownAsBool(v cty.Value) cty.Value {
	ty := v.Type()
	switch {
	case v.IsNull():
		return cty.False
	case !v.IsKnown():
		return cty.True
	case ty.IsPrimitiveType():
		return cty.False
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		if v.LengthInt() == 0 {
			return cty.EmptyTupleVal
		}
		var vals []cty.Value
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			vals = append(vals, unknownAsBool(ev))
		}
		return cty.TupleVal(vals)
	case ty.IsMapType() || ty.IsObjectType():
		vals := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if b := unknownAsBool(ev); !b.RawEquals(cty.False) {
				vals[k.AsString()] = b
			}
		}
		return cty.ObjectVal(vals)
	}
	return cty.False
}

// sensitiveAsBool mirrors v with true where a path of set marks it
// sensitive; non-sensitive leaves are false, and false entries of mappings
// are omitted.
func sensitiveAsBool(v cty.Value, path cty.Path, set pathSet) cty.Value {
	if set.has(path) {
		return cty.True
	}
	ty := v.Type()
	switch {
	case v.IsNull() || ty.IsPrimitiveType() || ty == cty.DynamicPseudoType:
		return cty.False
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		if !v.IsKnown() || v.LengthInt() == 0 {
			return cty.EmptyTupleVal
		}
		var vals []cty.Value
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			vals = append(vals, sensitiveAsBool(ev, indexStep(path, k), set))
		}
		return cty.TupleVal(vals)
	case ty.IsMapType() || ty.IsObjectType():
		if !v.IsKnown() {
			return cty.EmptyObjectVal
		}
		vals := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			step := indexStep(path, k)
			if ty.IsObjectType() {
				step = attrStep(path, k.AsString())
			}
			if b := sensitiveAsBool(ev, step, set); !b.RawEquals(cty.False) {
				vals[k.AsString()] = b
			}
		}
		return cty.ObjectVal(vals)
	}
	return cty.False
}
