package instance

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/provider"
)

// A path the provider says forces replacement counts when its value
// changes, or, as in OpenTofu and Terraform, when it leads into a
// write-only attribute, whose values are always null.
func TestChangedPathsKeepsWriteOnly(t *testing.T) {
	schema := &provider.Block{
		Attributes: map[string]*provider.Attribute{"name": {Type: cty.String, Optional: true}},
		BlockTypes: map[string]*provider.NestedBlock{"store": {Block: provider.Block{Attributes: map[string]*provider.Attribute{
			"input":  {Type: cty.String, Optional: true, WriteOnly: true},
			"output": {Type: cty.String, Computed: true},
		}}}},
	}
	obj := func(name string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "store": cty.ObjectVal(map[string]cty.Value{
			"input": cty.NullVal(cty.String), "output": cty.StringVal("kept")})})
	}
	name, input, output := cty.GetAttrPath("name"), cty.GetAttrPath("store").GetAttr("input"), cty.GetAttrPath("store").GetAttr("output")
	tests := []struct {
		name           string
		paths          []cty.Path
		prior, planned cty.Value
		want           []cty.Path
		wantWriteOnly  bool
	}{
		{"unchanged", []cty.Path{name, output}, obj("a"), obj("a"), nil, false},
		{"changed", []cty.Path{name, output}, obj("a"), obj("b"), []cty.Path{name}, false},
		{"write-only", []cty.Path{input}, obj("a"), obj("a"), []cty.Path{input}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := changedPaths(schema, tt.paths, tt.prior, tt.planned)
			if len(got) != len(tt.want) {
				t.Fatalf("changedPaths = %#v, want %#v", got, tt.want)
			}
			for i := range got {
				if !got[i].Equals(tt.want[i]) {
					t.Errorf("changedPaths[%d] = %#v, want %#v", i, got[i], tt.want[i])
				}
			}
			if w := anyWriteOnly(schema, got); w != tt.wantWriteOnly {
				t.Errorf("anyWriteOnly = %v, want %v", w, tt.wantWriteOnly)
			}
		})
	}
}
