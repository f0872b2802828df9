package ctyjson

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// fuzzTypes are the types FuzzUnmarshal decodes random JSON with.
var fuzzTypes = []cty.Type{
	cty.String,
	cty.Number,
	cty.Bool,
	cty.DynamicPseudoType,
	cty.List(cty.String),
	cty.Set(cty.Number),
	cty.Map(cty.Bool),
	cty.List(cty.DynamicPseudoType),
	cty.Tuple([]cty.Type{cty.String, cty.Number, cty.DynamicPseudoType}),
	cty.Object(map[string]cty.Type{
		"a": cty.String,
		"b": cty.List(cty.Map(cty.Number)),
		"c": cty.Set(cty.Object(map[string]cty.Type{"x": cty.Bool})),
		"d": cty.DynamicPseudoType,
	}),
	cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a": cty.String, "b": cty.Number}, []string{"b"}),
	dataType,
}

// FuzzUnmarshal checks that Unmarshal agrees with go-cty on random JSON: the
// same value, the same error or the same panic.
func FuzzUnmarshal(f *testing.F) {
	for _, group := range unmarshalCases {
		for _, tc := range group.cases {
			for i := range fuzzTypes {
				f.Add([]byte(tc.json), uint8(i))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		checkSame(t, data, fuzzTypes[int(which)%len(fuzzTypes)])
	})
}
