package ui

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestSameKey: sameKey agrees with comparing valueKey's keys.
func TestSameKey(t *testing.T) {
	vals := []cty.Value{
		cty.NilVal, cty.NullVal(cty.String), cty.NullVal(cty.DynamicPseudoType), cty.StringVal("a"), cty.StringVal("b"),
		cty.StringVal("1"), cty.NumberIntVal(1), cty.StringVal("true"), cty.True, cty.False,
		cty.UnknownVal(cty.String), cty.UnknownVal(cty.Bool), cty.ListVal([]cty.Value{cty.StringVal("a")}),
		cty.TupleVal([]cty.Value{cty.StringVal("a")}), cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String)}),
	}
	for _, x := range vals {
		for _, y := range vals {
			if got, want := sameKey(x, y), valueKey(x) == valueKey(y); got != want {
				t.Errorf("sameKey(%#v, %#v) = %v, valueKey says %v", x, y, got, want)
			}
		}
	}
}
