package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestPlainDecodesShareTheirSpecOnly: bodies of one spec, whose decoding
// shares what depends on the spec alone, each decode to their own values,
// whatever order they were prepared and decoded in.
func TestPlainDecodesShareTheirSpecOnly(t *testing.T) {
	spec := hcldec.ObjectSpec{
		"name": &hcldec.AttrSpec{Name: "name", Type: cty.String},
		"size": &hcldec.AttrSpec{Name: "size", Type: cty.Number},
	}
	srcs := []string{"name = \"a\"\nsize = 1\n", "name = \"b\"\n", "size = 3\n"}
	var decodes []*plainDecode
	var want []cty.Value
	for _, src := range srcs {
		f, diags := hclsyntax.ParseConfig([]byte(src), "test.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		body := f.Body.(*hclsyntax.Body)
		v, diags := hcldec.Decode(body, spec, nil)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		want = append(want, v)
		p := newPlainDecode(body, spec)
		if p == nil {
			t.Fatalf("%q is not decoded without hcldec", src)
		}
		decodes = append(decodes, p)
	}
	for i := len(decodes) - 1; i >= 0; i-- {
		got, ok := decodes[i].decode(nil)
		if !ok || !got.RawEquals(want[i]) {
			t.Errorf("body %q decodes to %#v (%v), want %#v", srcs[i], got, ok, want[i])
		}
	}
	first := plainTemplateOf(spec)
	if again := plainTemplateOf(spec); again != first {
		t.Errorf("the spec's template is worked out again")
	}
}
