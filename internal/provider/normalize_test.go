package provider

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// blocksSchema has one nested block of each nesting, a group block inside
// a group block, and one attribute each.
func blocksSchema() *Block {
	leaf := Block{Attributes: map[string]*Attribute{"x": {Type: cty.String, Optional: true}}}
	return &Block{
		Attributes: map[string]*Attribute{"name": {Type: cty.String, Optional: true}},
		BlockTypes: map[string]*NestedBlock{
			"single": {Nesting: NestingSingle, Block: leaf},
			"group": {Nesting: NestingGroup, Block: Block{
				Attributes: leaf.Attributes,
				BlockTypes: map[string]*NestedBlock{"inner": {Nesting: NestingGroup, Block: leaf}},
			}},
			"list": {Nesting: NestingList, Block: leaf},
			"set":  {Nesting: NestingSet, Block: leaf},
			"map":  {Nesting: NestingMap, Block: leaf},
		},
	}
}

// An absent group block decodes to its empty value (attributes null,
// nested groups empty too), as OpenTofu and Terraform give it to providers;
// an absent single block stays null; a group block that is written keeps
// what it says.
func TestDecodeAbsentGroupBlock(t *testing.T) {
	blk := blocksSchema()
	leafNull := cty.ObjectVal(map[string]cty.Value{"x": cty.NullVal(cty.String)})
	tests := []struct {
		name, src string
		group     cty.Value
	}{
		{"absent", `name = "a"`, cty.ObjectVal(map[string]cty.Value{"x": cty.NullVal(cty.String), "inner": leafNull})},
		{"empty", "group {}", cty.ObjectVal(map[string]cty.Value{"x": cty.NullVal(cty.String), "inner": leafNull})},
		{"set", "group {\n  x = \"1\"\n  inner {\n    x = \"2\"\n  }\n}", cty.ObjectVal(map[string]cty.Value{
			"x": cty.StringVal("1"), "inner": cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("2")}),
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ds := hclsyntax.ParseConfig([]byte(tt.src), "main.tf", hcl.InitialPos)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			v, ds := hcldec.Decode(f.Body, blk.DecoderSpec(), nil)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			if got := v.GetAttr("group"); !got.RawEquals(tt.group) {
				t.Errorf("group = %#v, want %#v", got, tt.group)
			}
			if got := v.GetAttr("single"); !got.IsNull() {
				t.Errorf("single = %#v, want null", got)
			}
			if !v.Type().Equals(blk.ImpliedType()) {
				t.Errorf("decoded type %#v, want %#v", v.Type(), blk.ImpliedType())
			}
		})
	}
}

// What a provider reads back is given the block forms the schema promises:
// null lists and sets become empty, a null group block its empty value,
// unknown blocks blocks of unknown attributes; single blocks, maps and
// values already in form are kept.
func TestNormalizeRead(t *testing.T) {
	blk := blocksSchema()
	ty := blk.ImpliedType()
	leafTy := cty.Object(map[string]cty.Type{"x": cty.String})
	obj := func(over map[string]cty.Value) cty.Value {
		vals := map[string]cty.Value{}
		for name, aty := range ty.AttributeTypes() {
			vals[name] = cty.NullVal(aty)
		}
		for k, v := range over {
			vals[k] = v
		}
		return cty.ObjectVal(vals)
	}
	formed := map[string]cty.Value{
		"group": blk.BlockTypes["group"].Block.EmptyValue(),
		"list":  cty.ListValEmpty(leafTy),
		"set":   cty.SetValEmpty(leafTy),
	}
	leaf := cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("1")})
	unknownLeaf := cty.ObjectVal(map[string]cty.Value{"x": cty.UnknownVal(cty.String)})
	tests := []struct {
		name    string
		in, out cty.Value
	}{
		{"null blocks", obj(nil), obj(formed)},
		{"already formed", obj(formed), obj(formed)},
		{"kept", obj(map[string]cty.Value{
			"single": leaf, "list": cty.ListVal([]cty.Value{leaf}), "set": cty.SetValEmpty(leafTy),
			"group": blk.BlockTypes["group"].Block.EmptyValue(), "map": cty.MapVal(map[string]cty.Value{"k": leaf}),
		}), obj(map[string]cty.Value{
			"single": leaf, "list": cty.ListVal([]cty.Value{leaf}), "set": cty.SetValEmpty(leafTy),
			"group": blk.BlockTypes["group"].Block.EmptyValue(), "map": cty.MapVal(map[string]cty.Value{"k": leaf}),
		})},
		{"unknown list", obj(map[string]cty.Value{
			"list": cty.UnknownVal(cty.List(leafTy)), "group": formed["group"], "set": formed["set"],
		}), obj(map[string]cty.Value{
			"list": cty.ListVal([]cty.Value{unknownLeaf}), "group": formed["group"], "set": formed["set"],
		})},
		{"null object", cty.NullVal(ty), cty.NullVal(ty)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := blk.NormalizeRead(tt.in); !got.RawEquals(tt.out) {
				t.Errorf("got  %#v\nwant %#v", got, tt.out)
			}
		})
	}
}
