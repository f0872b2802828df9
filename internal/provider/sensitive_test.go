package provider

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/marks"
)

// A schema's sensitive attributes are found at every depth: top-level
// attributes (null ones too), inside nested attribute types and nested
// blocks of each nesting, once per element present; MarkSensitive marks
// exactly those values.
func TestSensitivePathsAndMarks(t *testing.T) {
	inner := map[string]*Attribute{
		"name": {Type: cty.String, Optional: true},
		"pin":  {Type: cty.String, Optional: true, Sensitive: true},
	}
	blk := &Block{
		Attributes: map[string]*Attribute{
			"id":     {Type: cty.String, Computed: true},
			"secret": {Type: cty.String, Computed: true, Sensitive: true},
			"items":  {NestedType: &NestedObject{Nesting: NestingList, Attributes: inner}, Optional: true},
			"single": {NestedType: &NestedObject{Nesting: NestingSingle, Attributes: inner}, Optional: true},
		},
		BlockTypes: map[string]*NestedBlock{
			"rule":  {Nesting: NestingList, Block: Block{Attributes: inner}},
			"label": {Nesting: NestingMap, Block: Block{Attributes: inner}},
			"opts":  {Nesting: NestingSingle, Block: Block{Attributes: inner}},
		},
	}
	obj := func(name, pin string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "pin": cty.StringVal(pin)})
	}
	ty := blk.ImpliedType()
	v := cty.ObjectVal(map[string]cty.Value{
		"id":     cty.StringVal("i"),
		"secret": cty.NullVal(cty.String),
		"items":  cty.ListVal([]cty.Value{obj("a", "1"), obj("b", "2")}),
		"single": obj("s", "3"),
		"rule":   cty.ListVal([]cty.Value{obj("r", "4")}),
		"label":  cty.MapVal(map[string]cty.Value{"k": obj("l", "5")}),
		"opts":   cty.NullVal(ty.AttributeType("opts")),
	})
	if !blk.ContainsSensitive() || (&Block{Attributes: inner}).ContainsSensitive() == false || (&Block{}).ContainsSensitive() {
		t.Error("ContainsSensitive is wrong")
	}
	got := blk.SensitivePaths(v)
	marks.SortPaths(got)
	want := []cty.Path{
		cty.GetAttrPath("items").IndexInt(0).GetAttr("pin"),
		cty.GetAttrPath("items").IndexInt(1).GetAttr("pin"),
		cty.GetAttrPath("label").IndexString("k").GetAttr("pin"),
		cty.GetAttrPath("rule").IndexInt(0).GetAttr("pin"),
		cty.GetAttrPath("secret"),
		cty.GetAttrPath("single").GetAttr("pin"),
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) })); diff != "" {
		t.Errorf("SensitivePaths (-want +got):\n%s", diff)
	}
	marked := blk.MarkSensitive(v)
	_, paths := marks.Paths(marked)
	marks.SortPaths(paths)
	if diff := cmp.Diff(want, paths, cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) })); diff != "" {
		t.Errorf("MarkSensitive marked (-want +got):\n%s", diff)
	}
	if marks.Contains(blk.MarkSensitive(cty.UnknownVal(ty))) || marks.Contains((&Block{Attributes: inner}).MarkSensitive(cty.NullVal(cty.Object(map[string]cty.Type{"name": cty.String, "pin": cty.String})))) {
		t.Error("an unknown or null object was marked")
	}
	if got := (*Block)(nil).MarkSensitive(v); !got.RawEquals(v) {
		t.Error("a nil block changed the value")
	}
}
