package lang

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// convert(value, type) (Terraform 1.15, OpenTofu 1.13) converts to a type
// constraint written as in a variable's type: optional attributes get
// their defaults, the primitive type names are not references, marks
// stay, and a value that does not convert is an error at the argument.
func TestConvert(t *testing.T) {
	s := &Scope{Data: testData()}
	for _, tc := range []struct {
		name, src string
		want      cty.Value
		err       string
	}{
		{name: "set", src: `convert(["b", "a"], set(string))`, want: cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
		{name: "optional with default", src: `convert({a = 1}, object({a = string, b = optional(number, 3)}))`,
			want: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.NumberIntVal(3)})},
		{name: "null", src: `convert(null, list(number))`, want: cty.NullVal(cty.List(cty.Number))},
		{name: "any", src: `convert([1, 2], list(any))`, want: cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)})},
		{name: "sensitive stays", src: `convert(sensitive("5"), number)`, want: cty.NumberIntVal(5).Mark(Sensitive)},
		{name: "not convertible", src: `convert("x", number)`, err: `Invalid value for "value" parameter: a number is required.`},
		{name: "not a type", src: `convert(1, "string")`, err: "Invalid type specification"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ds := s.EvalExpr(parseExpr(t, tc.src), cty.DynamicPseudoType)
			if tc.err != "" {
				if !ds.HasErrors() || !strings.Contains(ds[0].Summary+" "+ds[0].Detail, tc.err) {
					t.Fatalf("diagnostics %v, want %q", ds, tc.err)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatalf("diagnostics: %v", ds.Err())
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}
