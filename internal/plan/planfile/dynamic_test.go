package planfile

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// TestUnmarshalDynamic checks that values of every shape decode as go-cty
// decodes them, including a list nested 3000 deep, whose type description
// go-cty alone reads in time growing with the square of the depth.
func TestUnmarshalDynamic(t *testing.T) {
	deep := cty.NumberIntVal(1)
	for range 3000 {
		deep = cty.TupleVal([]cty.Value{deep})
	}
	long := cty.StringVal(strings.Repeat("x", 70000))
	tests := []struct {
		name string
		v    cty.Value
	}{
		{"null", cty.NullVal(cty.DynamicPseudoType)},
		{"unknown", cty.DynamicVal},
		{"string", cty.StringVal("a")},
		{"object", cty.ObjectVal(map[string]cty.Value{"a": cty.ListVal([]cty.Value{cty.True}), "b": cty.UnknownVal(cty.String)})},
		{"long type description", cty.ObjectVal(map[string]cty.Value{strings.Repeat("k", 300): cty.StringVal("v"), strings.Repeat("n", 70000): long})},
		{"deep", deep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ctymsgpack.Marshal(tt.v, cty.DynamicPseudoType)
			if err != nil {
				t.Fatal(err)
			}
			got, err := unmarshalDynamic(b)
			if err != nil {
				t.Fatal(err)
			}
			if !got.RawEquals(tt.v) {
				t.Errorf("decoded %.200s, want %.200s", got.GoString(), tt.v.GoString())
			}
		})
	}
	if _, err := unmarshalDynamic([]byte{0x92, 0xa3, '"', 'x'}); err == nil {
		t.Error("truncated input: no error")
	}
}
