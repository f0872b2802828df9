package ui

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/plan"
)

// A replacement's planned values list no unknown value as sensitive, as
// OpenTofu's do; known ones stay, and other actions keep every path.
func TestReplacementSensitive(t *testing.T) {
	after := cty.ObjectVal(map[string]cty.Value{
		"result":   cty.UnknownVal(cty.String),
		"result_x": cty.StringVal("shown"),
		"nested":   cty.UnknownVal(cty.Object(map[string]cty.Type{"a": cty.String})),
	})
	set := pathSet{}
	for _, p := range []cty.Path{cty.GetAttrPath("result"), cty.GetAttrPath("result_x"), cty.GetAttrPath("nested").GetAttr("a")} {
		set.add(p)
	}
	got := replacementSensitive(plan.DeleteThenCreate, after, set)
	if len(got) != 1 || !got.has(cty.GetAttrPath("result_x")) {
		t.Errorf("replacement: %v, want result_x alone", got)
	}
	if got := replacementSensitive(plan.Create, after, set); len(got) != 3 {
		t.Errorf("create: %v, want every path", got)
	}
}
