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
