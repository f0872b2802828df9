package instance

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestWhollyKnown: whollyKnown agrees with go-cty's IsWhollyKnown on
// unknowns at every depth and in every kind of collection, marked or not.
func TestWhollyKnown(t *testing.T) {
	long := make([]cty.Value, 70)
	for i := range long {
		long[i] = cty.StringVal("x")
	}
	longUnknownLast := append(append([]cty.Value(nil), long[:69]...), cty.UnknownVal(cty.String))
	obj := func(v cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i"), "input": cty.ObjectVal(map[string]cty.Value{"refs": cty.TupleVal([]cty.Value{cty.StringVal("a"), v})})})
	}
	tests := []struct {
		name string
		v    cty.Value
		want bool
	}{
		{"string", cty.StringVal("s"), true},
		{"unknown", cty.UnknownVal(cty.String).RefineNotNull(), false},
		{"dynamic", cty.DynamicVal, false},
		{"null", cty.NullVal(cty.Object(map[string]cty.Type{"a": cty.String})), true},
		{"marked", cty.StringVal("s").Mark("sensitive"), true},
		{"marked unknown", cty.UnknownVal(cty.String).Mark("sensitive"), false},
		{"object known", obj(cty.StringVal("b")), true},
		{"object unknown deep in a tuple", obj(cty.UnknownVal(cty.String)), false},
		{"object marked unknown deep", obj(cty.UnknownVal(cty.String).Mark("sensitive")), false},
		{"marked object", obj(cty.StringVal("b")).Mark("sensitive"), true},
		{"long list", cty.ListVal(long), true},
		{"long list unknown last", cty.ListVal(longUnknownLast), false},
		{"long tuple unknown last", cty.TupleVal(longUnknownLast), false},
		{"empty list", cty.ListValEmpty(cty.String), true},
		{"map with unknown", cty.MapVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String)}), false},
		{"map", cty.MapVal(map[string]cty.Value{"a": cty.StringVal("b")}), true},
		{"set with unknown", cty.SetVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}), false},
		{"set", cty.SetVal([]cty.Value{cty.StringVal("a")}), true},
		{"list of marked unknown", cty.ListVal([]cty.Value{cty.UnknownVal(cty.String).Mark("sensitive")}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := whollyKnown(tt.v); got != tt.want || got != tt.v.IsWhollyKnown() {
				t.Errorf("whollyKnown = %v, want %v (IsWhollyKnown %v)", got, tt.want, tt.v.IsWhollyKnown())
			}
		})
	}
}
