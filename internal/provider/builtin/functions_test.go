package builtin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/provider"
)

// TestFunctions follows OpenTofu 1.10's tests of the built-in functions.
func TestFunctions(t *testing.T) {
	obj := func(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }
	tests := []struct {
		name    string
		fn      string
		arg     cty.Value
		want    cty.Value
		wantErr string
	}{
		{"decode: number", "decode_tfvars", cty.StringVal("test = 2\n"), obj(map[string]cty.Value{"test": cty.NumberIntVal(2)}), ""},
		{"decode: object", "decode_tfvars", cty.StringVal("test = {\n  k = \"v\"\n}\n"),
			obj(map[string]cty.Value{"test": obj(map[string]cty.Value{"k": cty.StringVal("v")})}), ""},
		{"decode: tuple", "decode_tfvars", cty.StringVal(`test = ["i1", "i2", 3]`),
			obj(map[string]cty.Value{"test": cty.TupleVal([]cty.Value{cty.StringVal("i1"), cty.StringVal("i2"), cty.NumberIntVal(3)})}), ""},
		{"decode: empty", "decode_tfvars", cty.StringVal(""), cty.EmptyObjectVal, ""},
		{"decode: not HCL", "decode_tfvars", cty.StringVal("test"), cty.NilVal, "failed to decode tfvars content"},
		{"decode: a block", "decode_tfvars", cty.StringVal("b {}"), cty.NilVal, "failed to decode tfvars content"},
		{"decode: a reference", "decode_tfvars", cty.StringVal("a = var.x"), cty.NilVal, "failed to decode tfvars content"},

		{"encode: empty", "encode_tfvars", cty.EmptyObjectVal, cty.StringVal(""), ""},
		{"encode: attributes in name order", "encode_tfvars",
			obj(map[string]cty.Value{"name": cty.StringVal("Jodie"), "count": cty.NumberIntVal(2), "tags": cty.ListVal([]cty.Value{cty.StringVal("a")})}),
			cty.StringVal("count = 2\nname  = \"Jodie\"\ntags  = [\"a\"]\n"), ""},
		{"encode: nested object", "encode_tfvars", obj(map[string]cty.Value{"test": obj(map[string]cty.Value{"k": cty.StringVal("v")})}),
			cty.StringVal("test = {\n  k = \"v\"\n}\n"), ""},
		{"encode: null", "encode_tfvars", cty.NullVal(cty.DynamicPseudoType), cty.NilVal, "invalid input: must not be null"},
		{"encode: not an object", "encode_tfvars", cty.StringVal("test"), cty.NilVal, "invalid input: must be an object"},
		{"encode: a map is not an object", "encode_tfvars", cty.MapVal(map[string]cty.Value{"a": cty.True}), cty.NilVal, "invalid input: must be an object"},
		{"encode: key not an identifier", "encode_tfvars", obj(map[string]cty.Value{"7*7": cty.True}), cty.NilVal,
			"invalid input: object key: 7*7 - must be a valid identifier"},

		{"expr: string", "encode_expr", cty.StringVal("test"), cty.StringVal(`"test"`), ""},
		{"expr: number", "encode_expr", cty.NumberIntVal(2), cty.StringVal("2"), ""},
		{"expr: bool", "encode_expr", cty.True, cty.StringVal("true"), ""},
		{"expr: null", "encode_expr", cty.NullVal(cty.String), cty.StringVal("null"), ""},
		{"expr: tuple of objects", "encode_expr",
			cty.TupleVal([]cty.Value{obj(map[string]cty.Value{"test": cty.StringVal("test")}), obj(map[string]cty.Value{"test2": cty.StringVal("test2")})}),
			cty.StringVal(`[{
  test = "test"
  }, {
  test2 = "test2"
}]`), ""},
		{"expr: nested object", "encode_expr", obj(map[string]cty.Value{"a": obj(map[string]cty.Value{"b": cty.StringVal("c")})}),
			cty.StringVal("{\n  a = {\n    b = \"c\"\n  }\n}"), ""},
		{"expr: partly unknown", "encode_expr", cty.TupleVal([]cty.Value{cty.UnknownVal(cty.String)}), cty.NilVal, "input is not known"},
	}
	p := NewTerraform()
	specs, ds := p.GetFunctions(context.Background())
	if ds.HasErrors() || len(specs) != 3 {
		t.Fatalf("GetFunctions = %v, %v", specs, ds.Err())
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := p.CallFunction(context.Background(), tt.fn, []cty.Value{tt.arg})
			if tt.wantErr != "" {
				var fe *provider.FunctionError
				if !errors.As(err, &fe) || !strings.Contains(fe.Text, tt.wantErr) {
					t.Fatalf("error = %v, want a FunctionError containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !got.RawEquals(tt.want) {
				t.Errorf("got %#v\nwant %#v", got, tt.want)
			}
			if ret := specs[tt.fn].ReturnType; ret != cty.DynamicPseudoType && !got.Type().Equals(ret) {
				t.Errorf("result type %#v, spec says %#v", got.Type(), ret)
			}
		})
	}
	if _, err := p.CallFunction(context.Background(), "nope", nil); err == nil {
		t.Error("calling an undefined function succeeded")
	}
}
