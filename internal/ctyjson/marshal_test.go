package ctyjson

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/zclconf/go-cty/cty"
	goctyjson "github.com/zclconf/go-cty/cty/json"
)

// checkMarshalSame reports whether Marshal and go-cty's Marshal agree on v:
// the same bytes, or the same error text.
func checkMarshalSame(t testing.TB, v cty.Value, ty cty.Type) {
	t.Helper()
	want, wantErr := goctyjson.Marshal(v, ty)
	got, gotErr := Marshal(v, ty)
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
		t.Fatalf("Marshal(%#v) error = %v, go-cty's %v", v, gotErr, wantErr)
	}
	if string(got) != string(want) {
		t.Fatalf("Marshal(%#v) =\n%s\ngo-cty's\n%s", v, got, want)
	}
}

func TestMarshal(t *testing.T) {
	big1, _ := new(big.Float).SetString("123456789012345678901234567890.125")
	obj := cty.ObjectVal(map[string]cty.Value{
		"id":    cty.StringVal("x<y>&z\u2028\u2029\x01\"\\\n\t"),
		"n":     cty.NumberVal(big1),
		"f":     cty.NumberFloatVal(-0.5),
		"i":     cty.NumberIntVal(-42),
		"b":     cty.True,
		"null":  cty.NullVal(cty.String),
		"list":  cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"empty": cty.ListValEmpty(cty.Number),
		"set":   cty.SetVal([]cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(1)}),
		"map":   cty.MapVal(map[string]cty.Value{"z": cty.False, "a<": cty.True}),
		"tuple": cty.TupleVal([]cty.Value{cty.StringVal("t"), cty.NumberIntVal(1), cty.EmptyObjectVal, cty.EmptyTupleVal}),
		"nested": cty.ObjectVal(map[string]cty.Value{
			"refs": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("v")})}),
		}),
	})
	dynamicAttrs := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType})
	tests := []struct {
		name string
		v    cty.Value
		ty   cty.Type
	}{
		{"object", obj, obj.Type()},
		{"dynamic object", obj, cty.DynamicPseudoType},
		{"dynamic attributes", cty.ObjectVal(map[string]cty.Value{
			"id":     cty.StringVal("i"),
			"input":  obj,
			"output": cty.NullVal(cty.DynamicPseudoType),
		}), dynamicAttrs},
		{"dynamic null of a type", cty.NullVal(cty.List(cty.String)), cty.DynamicPseudoType},
		{"dynamic set of objects", cty.SetVal([]cty.Value{obj}), cty.DynamicPseudoType},
		{"dynamic map of tuples", cty.MapVal(map[string]cty.Value{"a": cty.EmptyTupleVal}), cty.DynamicPseudoType},
		{"invalid UTF-8", cty.StringVal("a\xffb"), cty.String},
		{"null object", cty.NullVal(obj.Type()), obj.Type()},
		// Longer than the index keys made in advance, and objects of more
		// attributes than fit the names' array.
		{"long list", cty.ListVal(manyStrings(70)), cty.List(cty.String)},
		{"long tuple", cty.TupleVal(manyStrings(70)), cty.Tuple(manyTypes(70))},
		{"wide object", wideObject(40), wideObject(40).Type()},
		{"wide object type", wideObject(40), cty.DynamicPseudoType},
		// go-cty's errors, through the fallback.
		{"unknown", cty.ObjectVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String)}), cty.Object(map[string]cty.Type{"a": cty.String})},
		{"marked", cty.ListVal([]cty.Value{cty.StringVal("s").Mark("sensitive")}), cty.List(cty.String)},
		{"infinity", cty.PositiveInfinity, cty.Number},
		{"dynamic unknown", cty.DynamicVal, cty.DynamicPseudoType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkMarshalSame(t, tt.v, tt.ty) })
	}
}

// TestMarshalOwnResult: each result is the caller's own, whatever
// Marshal encodes afterwards (it encodes in buffers it reuses).
func TestMarshalOwnResult(t *testing.T) {
	first, err := Marshal(cty.ListVal(manyStrings(3)), cty.List(cty.String))
	if err != nil {
		t.Fatal(err)
	}
	want := string(first)
	for range 10 {
		if _, err := Marshal(wideObject(40), cty.DynamicPseudoType); err != nil {
			t.Fatal(err)
		}
	}
	if string(first) != want {
		t.Fatalf("first result changed to %s, was %s", first, want)
	}
	if len(first) != cap(first) {
		t.Errorf("result has %d bytes of room beyond its %d", cap(first)-len(first), len(first))
	}
}

func manyStrings(n int) []cty.Value {
	out := make([]cty.Value, n)
	for i := range out {
		out[i] = cty.StringVal(fmt.Sprintf("s%d", i))
	}
	return out
}

func manyTypes(n int) []cty.Type {
	out := make([]cty.Type, n)
	for i := range out {
		out[i] = cty.String
	}
	return out
}

// wideObject is an object of n attributes, names in no sorted order.
func wideObject(n int) cty.Value {
	attrs := make(map[string]cty.Value, n)
	for i := range n {
		attrs[fmt.Sprintf("a%d", (i*7)%n)] = cty.NumberIntVal(int64(i))
	}
	return cty.ObjectVal(attrs)
}

// FuzzMarshal checks that Marshal agrees with go-cty on every value go-cty
// decodes from random JSON with the fuzz types, dynamic values of any shape
// among them.
func FuzzMarshal(f *testing.F) {
	for _, group := range unmarshalCases {
		for _, tc := range group.cases {
			f.Add([]byte(tc.json))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, ty := range fuzzTypes {
			o := run(goctyjson.Unmarshal, data, ty)
			if o.err != "" || o.panicked != "" || hasHugeNumber(o.val) {
				continue
			}
			checkMarshalSame(t, o.val, ty)
		}
	})
}

// hasHugeNumber reports whether v holds a number whose decimal form runs to
// thousands of digits (1E+55555555 takes minutes to write out, for go-cty
// as for Marshal): comparing those is no use and stalls fuzzing.
func hasHugeNumber(v cty.Value) bool {
	huge := false
	_ = cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
		if v.IsKnown() && !v.IsNull() && v.Type() == cty.Number {
			if bf := v.AsBigFloat(); !bf.IsInf() {
				exp := bf.MantExp(nil)
				huge = huge || exp > 1<<14 || exp < -(1<<14)
			}
		}
		return !huge, nil
	})
	return huge
}
