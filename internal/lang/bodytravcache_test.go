package lang

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestPlainBodyReferences checks that the references of a body of
// arguments only, found from the walk the configuration's check shares,
// are those the spec's walk finds, and that other bodies keep the spec's.
func TestPlainBodyReferences(t *testing.T) {
	spec := hcldec.ObjectSpec{
		"input": &hcldec.AttrSpec{Name: "input", Type: cty.DynamicPseudoType},
		"name":  &hcldec.AttrSpec{Name: "name", Type: cty.String},
	}
	tests := []struct {
		name, src string
		plain     bool
	}{
		{"arguments", "count = 2\ninput = { a = [terraform_data.a.id, var.x], b = local.y[count.index] }\nname = \"${module.m.out}-${data.d.e.id}\"\nlifecycle {\n}\n", true},
		{"no references", "input = 1\n", true},
		{"invalid reference", "input = var\nname = local.z\n", true},
		{"dynamic block", "input = var.x\ndynamic \"b\" {\n  for_each = var.list\n  content {\n    v = b.value\n  }\n}\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := hclsyntax.ParseConfig([]byte(tt.src), "test.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			_, remain, _ := f.Body.PartialContent(&hcl.BodySchema{
				Attributes: []hcl.AttributeSchema{{Name: "count"}},
				Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}},
			})
			got := cachedBody(remain, spec)
			if (got.plain != nil) != tt.plain {
				t.Fatalf("plain decode: %v, want %v", got.plain != nil, tt.plain)
			}
			wantRefs, wantDiags := ReferencesInBody(remain, spec)
			if g, w := refStrings(got.refs), refStrings(wantRefs); !slices.Equal(g, w) {
				t.Errorf("references %v, want %v", g, w)
			}
			if len(got.diags) != len(wantDiags) {
				t.Errorf("diagnostics %v, want %v", got.diags, wantDiags)
			}
			// The check of the configuration walks the same body once.
			again := cachedBodyTraversals(remain)
			if tt.plain && len(again) > 0 && &again[0] != &cachedBodyTraversals(remain)[0] {
				t.Error("the body's traversals are walked again")
			}
		})
	}
}

func refStrings(refs []*Reference) []string {
	var out []string
	for _, r := range refs {
		out = append(out, fmt.Sprintf("%s %s", r.String(), r.Range))
	}
	slices.Sort(out)
	return out
}
