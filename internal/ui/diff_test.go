package ui

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// TestDiffRender checks single values against the renderings OpenTofu's
// own renderer tests expect (leading newline trimmed, indent 0).
func TestDiffRender(t *testing.T) {
	str := func(s string) cty.Value { return cty.StringVal(s) }
	tests := []struct {
		name          string
		before, after cty.Value
		ty            cty.Type
		want          string
	}{
		{"string create", cty.NilVal, str("null"), cty.String, `"null"`},
		{"string delete", str("null"), cty.NilVal, cty.String, `"null" -> null`},
		{"number update", cty.NumberIntVal(0), cty.NumberIntVal(1), cty.Number, "0 -> 1"},
		{"big number", cty.MustParseNumberVal("918446744073709551615"), cty.NumberIntVal(0), cty.Number, "918446744073709551615 -> 0"},
		{"multiline create", cty.NilVal, str("hello\nworld"), cty.String, `
<<-EOT
        hello
        world
    EOT`},
		{"multiline delete", str("hello\nworld"), cty.NilVal, cty.String, `
<<-EOT
        hello
        world
    EOT -> null`},
		{"multiline update", str("hello\nold\nworld"), str("hello\nnew\nworld"), cty.String, `
<<-EOT
        hello
      - old
      + new
        world
    EOT`},
		{"multi to single", str("hello\nworld"), str("hello world"), cty.String, `
<<-EOT
      - hello
      - world
      + hello world
    EOT`},
		{"json create", cty.NilVal, str(`{"key_one": "value_one","key_two":"value_two"}`), cty.String, `
jsonencode(
        {
          + key_one = "value_one"
          + key_two = "value_two"
        }
    )`},
		{"json delete", str(`{"key_one": "value_one","key_two":"value_two"}`), cty.NilVal, cty.String, `
jsonencode(
        {
          - key_one = "value_one"
          - key_two = "value_two"
        }
    ) -> null`},
		{"json update", str(`{"key_one": "value_one","key_two":"value_two"}`), str(`{"key_one": "value_one","key_two":"value_two","key_three":"value_three"}`), cty.String, `
jsonencode(
      ~ {
          + key_three = "value_three"
            # (2 unchanged attributes hidden)
        }
    )`},
		{"json explicit nulls", str(`{"key_one":"value_one","key_two":"value_two"}`), str(`{"key_one":null}`), cty.String, `
jsonencode(
      ~ {
          ~ key_one = "value_one" -> null
          - key_two = "value_two"
        }
    )`},
		{"json whitespace", str(`{"a":1}`), str(`{"a": 1}`), cty.String, `
jsonencode( # whitespace changes
        {
            a = 1
        }
    )`},
		{"json to string", str(`{"key_one": "value_one","key_two":"value_two"}`), str("hello world"), cty.String, `
jsonencode(
        {
          - key_one = "value_one"
          - key_two = "value_two"
        }
    ) -> "hello world"`},
		{"multiline to json", str("hello\nworld"), str(`{"key_one": "value_one","key_two":"value_two"}`), cty.String, `
<<-EOT
        hello
        world
    EOT -> jsonencode(
        {
          + key_one = "value_one"
          + key_two = "value_two"
        }
    )`},
		{"unknown update", cty.NumberIntVal(0), cty.UnknownVal(cty.Number), cty.Number, "0 -> (known after apply)"},
		{"list context", cty.ListVal([]cty.Value{str("a"), str("b"), str("c"), str("d"), str("e")}),
			cty.ListVal([]cty.Value{str("a"), str("b"), str("c"), str("x"), str("e")}), cty.List(cty.String), `
[
        # (2 unchanged elements hidden)
        "c",
      - "d",
      + "x",
        "e",
    ]`},
		{"set", cty.SetVal([]cty.Value{str("a"), str("b")}), cty.SetVal([]cty.Value{str("a"), str("c")}), cty.Set(cty.String), `
[
      - "b",
      + "c",
        # (1 unchanged element hidden)
    ]`},
		{"map delete", cty.MapVal(map[string]cty.Value{"k": str("v")}), cty.NilVal, cty.Map(cty.String), `
{
      - "k" = "v"
    } -> null`},
		{"dynamic type change", str("a"), cty.ObjectVal(map[string]cty.Value{"b": str("c")}), cty.DynamicPseudoType, `
"a" -> {
      + b = "c"
    }`},
		{"dynamic list of objects", cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"n": str("a"), "v": cty.NumberIntVal(1)})}),
			cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"n": str("a"), "v": cty.NumberIntVal(2)})}), cty.DynamicPseudoType, `
[
      ~ {
          ~ v = 1 -> 2
            # (1 unchanged attribute hidden)
        },
    ]`},
		{"dynamic object, unknown inside", cty.ObjectVal(map[string]cty.Value{"a": str("x")}),
			cty.ObjectVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String), "id": str("i")}), cty.DynamicPseudoType, `
{
      ~ a  = "x" -> (known after apply)
      + id = "i"
    }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &differ{}
			got := d.attr(side{v: tt.before}, side{v: tt.after}, tt.ty).text(0, ropts{})
			if diff := cmp.Diff(strings.TrimPrefix(tt.want, "\n"), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestNestedAttributes renders protocol-6 nested attribute types.
func TestNestedAttributes(t *testing.T) {
	inner := map[string]*provider.Attribute{
		"name": {Type: cty.String, Optional: true},
		"size": {Type: cty.Number, Optional: true},
	}
	blk := &provider.Block{Attributes: map[string]*provider.Attribute{
		"single": {NestedType: &provider.NestedObject{Nesting: provider.NestingSingle, Attributes: inner}},
		"list":   {NestedType: &provider.NestedObject{Nesting: provider.NestingList, Attributes: inner}},
	}}
	obj := func(name string, size int64) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "size": cty.NumberIntVal(size)})
	}
	before := cty.ObjectVal(map[string]cty.Value{"single": obj("a", 1), "list": cty.ListVal([]cty.Value{obj("x", 1)})})
	after := cty.ObjectVal(map[string]cty.Value{"single": obj("a", 2), "list": cty.ListVal([]cty.Value{obj("x", 1), obj("y", 2)})})
	d := &differ{replace: pathSet{}}
	d.replace.add(cty.GetAttrPath("single").GetAttr("size"))
	got := d.block(side{v: before}, side{v: after}, blk).text(0, ropts{})
	want := `{
      ~ list   = [
          + {
              + name = "y"
              + size = 2
            },
            # (1 unchanged element hidden)
        ]
      ~ single = {
            name = "a"
          ~ size = 1 -> 2 # forces replacement
        }
    }`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
