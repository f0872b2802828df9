package builtin

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestAttrMap: attrMap holds what AsValueMap holds, unknown and null
// attributes included.
func TestAttrMap(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"id":               cty.UnknownVal(cty.String).RefineNotNull(),
		"input":            cty.ObjectVal(map[string]cty.Value{"refs": cty.TupleVal([]cty.Value{cty.StringVal("a")})}),
		"output":           cty.NullVal(cty.DynamicPseudoType),
		"triggers_replace": cty.StringVal("t"),
		"store":            cty.NullVal(storeBlock.ImpliedType()),
	})
	got, want := attrMap(v), v.AsValueMap()
	if len(got) != len(want) {
		t.Fatalf("attrMap has %d attributes, AsValueMap %d", len(got), len(want))
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || !g.RawEquals(w) {
			t.Errorf("attrMap[%q] = %#v, AsValueMap's %#v", name, g, w)
		}
	}
	if !cty.ObjectVal(got).RawEquals(v) {
		t.Errorf("the object made of attrMap's attributes differs: %#v", cty.ObjectVal(got))
	}
}
