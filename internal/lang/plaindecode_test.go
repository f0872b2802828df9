package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestPlainDecodeMatchesHCLDec checks that a body of arguments decodes to
// the value hcldec gives, and that anything hcldec would report on is left
// to hcldec.
func TestPlainDecodeMatchesHCLDec(t *testing.T) {
	objTy := cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a": cty.String, "b": cty.Number}, []string{"b"})
	spec := hcldec.ObjectSpec{
		"name":   &hcldec.AttrSpec{Name: "name", Type: cty.String, Required: true},
		"count_": &hcldec.AttrSpec{Name: "size", Type: cty.Number},
		"input":  &hcldec.AttrSpec{Name: "input", Type: cty.DynamicPseudoType},
		"obj":    &hcldec.AttrSpec{Name: "obj", Type: objTy},
		"tags":   &hcldec.AttrSpec{Name: "tags", Type: cty.Map(cty.String)},
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{
			"known":   cty.StringVal("k"),
			"unknown": cty.UnknownVal(cty.String),
			"secret":  cty.StringVal("s").Mark("sensitive"),
			"num":     cty.NumberIntVal(3),
		}),
	}}
	tests := []struct {
		name  string
		src   string
		spec  hcldec.Spec
		plain bool // decoded without hcldec
		shape bool // left to hcldec for the spec's shape, not a problem
	}{
		{"arguments", `name = "x"
size = "42"
input = { a = [var.unknown, var.known], b = 1 }
obj = { a = var.known }
tags = { k = var.num }
`, spec, true, false},
		{"absent optional arguments are null", `name = var.secret`, spec, true, false},
		{"empty spec and body", ``, hcldec.ObjectSpec{}, true, false},
		{"missing required argument", `size = 1`, spec, false, false},
		{"unsupported argument", "name = \"x\"\nother = 1\n", spec, false, false},
		{"block", "name = \"x\"\nnested {\n}\n", spec, false, false},
		{"conversion error", "name = \"x\"\nsize = \"many\"\n", spec, false, false},
		{"expression error", "name = \"x\"\nsize = var.missing\n", spec, false, false},
		{"custom decoder type", "t = string\n", hcldec.ObjectSpec{"t": &hcldec.AttrSpec{Name: "t", Type: typeexpr.TypeConstraintType}}, false, true},
		{"absent single block", "name = \"x\"\n", hcldec.ObjectSpec{"name": spec["name"], "b": &hcldec.BlockSpec{TypeName: "b", Nested: hcldec.ObjectSpec{"a": &hcldec.AttrSpec{Name: "a", Type: cty.String}}}}, true, false},
		{"present single block", "b {\n  a = \"y\"\n}\n", hcldec.ObjectSpec{"b": &hcldec.BlockSpec{TypeName: "b", Nested: hcldec.ObjectSpec{"a": &hcldec.AttrSpec{Name: "a", Type: cty.String}}}}, false, true},
		{"required single block", "", hcldec.ObjectSpec{"b": &hcldec.BlockSpec{TypeName: "b", Nested: hcldec.ObjectSpec{}, Required: true}}, false, false},
		{"list block spec", "", hcldec.ObjectSpec{"b": &hcldec.BlockListSpec{TypeName: "b", Nested: hcldec.ObjectSpec{}}}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := hclsyntax.ParseConfig([]byte(tt.src), "test.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			body := f.Body.(*hclsyntax.Body)
			want, wantDiags := hcldec.Decode(body, tt.spec, ctx)
			p := newPlainDecode(body, tt.spec)
			var got cty.Value
			ok := false
			if p != nil {
				got, ok = p.decode(ctx)
			}
			if ok != tt.plain {
				t.Fatalf("decoded without hcldec: %v, want %v (hcldec's diagnostics: %v)", ok, tt.plain, wantDiags)
			}
			if tt.shape && p != nil {
				t.Errorf("a plain decode of a spec hcldec must decode")
			}
			if !ok {
				if len(wantDiags) == 0 && !tt.shape {
					t.Errorf("left to hcldec, which reports nothing")
				}
				return
			}
			if len(wantDiags) > 0 {
				t.Fatalf("hcldec reports %v", wantDiags)
			}
			if !got.RawEquals(want) {
				t.Errorf("got %#v\nwant %#v", got, want)
			}
		})
	}
}

// TestPlainDecodeHiddenArguments checks a body whose meta-arguments an
// enclosing block's schema took (as a resource's count and lifecycle): they
// are neither decoded nor unexpected.
func TestPlainDecodeHiddenArguments(t *testing.T) {
	src := "count = 2\nname = \"x\"\nlifecycle {\n}\n"
	f, diags := hclsyntax.ParseConfig([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, remain, diags := f.Body.PartialContent(&hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "count"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}},
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	spec := hcldec.ObjectSpec{"name": &hcldec.AttrSpec{Name: "name", Type: cty.String}}
	want, wantDiags := hcldec.Decode(remain, spec, nil)
	if len(wantDiags) > 0 {
		t.Fatal(wantDiags)
	}
	p := newPlainDecode(remain.(*hclsyntax.Body), spec)
	if p == nil {
		t.Fatal("not decoded without hcldec")
	}
	got, ok := p.decode(nil)
	if !ok || !got.RawEquals(want) {
		t.Errorf("got %#v (%v), want %#v", got, ok, want)
	}
}
