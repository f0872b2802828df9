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

// TestRawEqual: rawEqual agrees with go-cty's RawEquals, marks, unknowns,
// nulls of other types and collections of other element types included.
func TestRawEqual(t *testing.T) {
	s := cty.StringVal
	obj := func(ref cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": s("i"), "input": cty.ObjectVal(map[string]cty.Value{"refs": cty.TupleVal([]cty.Value{s("a"), ref})})})
	}
	vals := []cty.Value{
		s("a"), s("b"), s("a").Mark("sensitive"), cty.True, cty.False, cty.NumberIntVal(1), cty.NumberFloatVal(1.0),
		cty.NullVal(cty.String), cty.NullVal(cty.Number), cty.NullVal(cty.DynamicPseudoType),
		cty.UnknownVal(cty.String), cty.UnknownVal(cty.String).RefineNotNull(), cty.DynamicVal,
		cty.ListValEmpty(cty.String), cty.ListValEmpty(cty.Number), cty.ListVal([]cty.Value{s("a")}), cty.ListVal([]cty.Value{s("a"), s("b")}),
		cty.ListVal([]cty.Value{s("a").Mark("sensitive")}),
		cty.TupleVal([]cty.Value{s("a")}), cty.TupleVal([]cty.Value{s("a"), cty.True}), cty.EmptyTupleVal,
		cty.SetVal([]cty.Value{s("a")}), cty.MapVal(map[string]cty.Value{"k": s("a")}),
		obj(s("b")), obj(s("c")), obj(s("b").Mark("sensitive")), obj(cty.UnknownVal(cty.String)), obj(cty.NullVal(cty.String)),
		cty.ObjectVal(map[string]cty.Value{"id": s("i")}), cty.EmptyObjectVal,
	}
	for i, a := range vals {
		for j, b := range vals {
			// Equal values built apart, not the same value twice.
			if got, want := rawEqual(a, b), a.RawEquals(b); got != want {
				t.Errorf("rawEqual(%#v, %#v) = %v, RawEquals %v (%d, %d)", a, b, got, want, i, j)
			}
		}
	}
	if !rawEqual(obj(s("b")), obj(s("b"))) || rawEqual(obj(s("b")), obj(s("b").Mark("sensitive"))) {
		t.Error("objects built apart compare wrongly")
	}
}
