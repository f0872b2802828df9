package ui

import "github.com/zclconf/go-cty/cty"

// sameKey reports whether valueKey(x) == valueKey(y), without building the
// keys where that is plain: both null (or absent), or both known strings
// or bools. Every primitive of every change rendered is compared so.
func sameKey(x, y cty.Value) bool {
	xNil, yNil := isNil(x), isNil(y)
	switch {
	case xNil || yNil:
		return xNil == yNil || valueKey(x) == valueKey(y)
	case x.IsMarked() || y.IsMarked() || !x.IsKnown() || !y.IsKnown():
	case x.Type() == cty.String && y.Type() == cty.String:
		return x.AsString() == y.AsString()
	case x.Type() == cty.Bool && y.Type() == cty.Bool:
		return x.True() == y.True()
	}
	return valueKey(x) == valueKey(y)
}
