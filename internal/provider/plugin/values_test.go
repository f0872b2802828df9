package plugin

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestValueRoundTrip(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"s": cty.String, "d": cty.DynamicPseudoType, "l": cty.List(cty.Number)})
	tests := []struct {
		name string
		in   cty.Value
		want cty.Value
	}{
		{"null", cty.NullVal(ty), cty.NullVal(ty)},
		{"zero value", cty.NilVal, cty.NullVal(ty)},
		{"unknown", cty.UnknownVal(ty), cty.UnknownVal(ty)},
		{
			name: "refined unknowns and dynamic",
			in: cty.ObjectVal(map[string]cty.Value{
				"s": cty.UnknownVal(cty.String).Refine().NotNull().StringPrefix("ab").NewValue(),
				"d": cty.MapVal(map[string]cty.Value{"k": cty.True}),
				"l": cty.UnknownVal(cty.List(cty.Number)).Refine().CollectionLengthLowerBound(1).NewValue(),
			}),
			want: cty.ObjectVal(map[string]cty.Value{
				"s": cty.UnknownVal(cty.String).Refine().NotNull().StringPrefix("ab").NewValue(),
				"d": cty.MapVal(map[string]cty.Value{"k": cty.True}),
				"l": cty.UnknownVal(cty.List(cty.Number)).Refine().CollectionLengthLowerBound(1).NewValue(),
			}),
		},
		{
			name: "marks dropped, types converted",
			in:   cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("x").Mark("sensitive"), "d": cty.NullVal(cty.DynamicPseudoType), "l": cty.TupleVal([]cty.Value{cty.NumberIntVal(1)})}),
			want: cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("x"), "d": cty.NullVal(cty.DynamicPseudoType), "l": cty.ListVal([]cty.Value{cty.NumberIntVal(1)})}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dv, err := encodeValue(tt.in, ty)
			if err != nil {
				t.Fatal(err)
			}
			got, err := decodeValue(dv, ty)
			if err != nil {
				t.Fatal(err)
			}
			if !got.RawEquals(tt.want) {
				t.Errorf("round trip = %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestDecodeValue(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"s": cty.String})
	tests := []struct {
		name    string
		in      dynamicValue
		want    cty.Value
		wantErr bool
	}{
		{"absent is null", dynamicValue{}, cty.NullVal(ty), false},
		{"json", dynamicValue{json: []byte(`{"s":"x"}`)}, cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("x")}), false},
		{"msgpack wins over json", dynamicValue{msgpack: []byte{0xc0}, json: []byte(`{"s":"x"}`)}, cty.NullVal(ty), false},
		{"malformed msgpack", dynamicValue{msgpack: []byte{0x81, 0xa1}}, cty.NilVal, true},
		{"malformed json", dynamicValue{json: []byte(`{"s":`)}, cty.NilVal, true},
		{"wrong shape", dynamicValue{json: []byte(`[1]`)}, cty.NilVal, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeValue(tt.in, ty)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil && !got.RawEquals(tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

// FuzzDecodeValue checks that no provider response can make decoding panic.
func FuzzDecodeValue(f *testing.F) {
	ty := cty.Object(map[string]cty.Type{"s": cty.String, "d": cty.DynamicPseudoType, "l": cty.Set(cty.Number)})
	for _, v := range []cty.Value{cty.NullVal(ty), cty.UnknownVal(ty), cty.ObjectVal(map[string]cty.Value{
		"s": cty.StringVal("x"), "d": cty.ListVal([]cty.Value{cty.True}), "l": cty.SetVal([]cty.Value{cty.NumberIntVal(2)}),
	})} {
		dv, err := encodeValue(v, ty)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(dv.msgpack, false)
	}
	f.Add([]byte(`{"s":"x","d":{"value":1,"type":"number"},"l":[1]}`), true)
	f.Fuzz(func(t *testing.T, b []byte, asJSON bool) {
		dv := dynamicValue{msgpack: b}
		if asJSON {
			dv = dynamicValue{json: b}
		}
		_, _ = decodeValue(dv, ty)
	})
}
