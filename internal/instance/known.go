package instance

import "github.com/zclconf/go-cty/cty"

// whollyKnown reports what v.IsWhollyKnown reports, without its element
// iterators: go-cty's sorts an object's attribute names and makes a key
// value for every element it visits, about twenty allocations for each
// small object an apply checks.
func whollyKnown(v cty.Value) bool {
	v, _ = v.Unmark()
	if !v.IsKnown() {
		return false
	}
	if v.IsNull() {
		return true
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if !whollyKnown(v.GetAttr(name)) {
				return false
			}
		}
	case ty.IsListType(), ty.IsTupleType():
		for i := range v.LengthInt() {
			if !whollyKnown(v.Index(indexKey(i))) {
				return false
			}
		}
	case ty.IsMapType(), ty.IsSetType():
		return v.IsWhollyKnown()
	}
	return true
}

// indexKey is the index key of element i, made once for the first few.
func indexKey(i int) cty.Value {
	if i < len(indexKeys) {
		return indexKeys[i]
	}
	return cty.NumberIntVal(int64(i))
}

var indexKeys = func() (keys [64]cty.Value) {
	for i := range keys {
		keys[i] = cty.NumberIntVal(int64(i))
	}
	return keys
}()

// rawEqual reports what a.RawEquals(b) reports. Unmarked, known values
// are compared here, strings and bools directly and lists, tuples and
// objects element by element: RawEquals first walks both values whole for
// marks, which for the small objects an apply compares cost more than the
// comparison. Everything else is left to RawEquals.
func rawEqual(a, b cty.Value) bool {
	if a.IsMarked() || b.IsMarked() || !a.IsKnown() || !b.IsKnown() || a.IsNull() || b.IsNull() {
		return a.RawEquals(b)
	}
	ty := a.Type()
	switch {
	case ty == cty.String:
		return b.Type() == cty.String && a.AsString() == b.AsString()
	case ty == cty.Bool:
		return b.Type() == cty.Bool && a.True() == b.True()
	case ty.IsListType(), ty.IsTupleType():
		if !ty.Equals(b.Type()) || a.LengthInt() != b.LengthInt() {
			return false
		}
		for i := range a.LengthInt() {
			if !rawEqual(a.Index(indexKey(i)), b.Index(indexKey(i))) {
				return false
			}
		}
		return true
	case ty.IsObjectType():
		if !ty.Equals(b.Type()) {
			return false
		}
		for name := range ty.AttributeTypes() {
			if !rawEqual(a.GetAttr(name), b.GetAttr(name)) {
				return false
			}
		}
		return true
	}
	return a.RawEquals(b)
}
