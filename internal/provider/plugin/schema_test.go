package plugin

import (
	"strings"
	"testing"

	proto5 "github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
	proto6 "github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
)

// TestInvalidSchemas checks that malformed schemas are errors, not panics.
func TestInvalidSchemas(t *testing.T) {
	str := []byte(`"string"`)
	tests6 := []struct {
		name string
		in   *proto6.Schema
		want string
	}{
		{"attribute without type", &proto6.Schema{Block: &proto6.Schema_Block{Attributes: []*proto6.Schema_Attribute{{Name: "a"}}}}, `"a" has no type`},
		{"bad type JSON", &proto6.Schema{Block: &proto6.Schema_Block{Attributes: []*proto6.Schema_Attribute{{Name: "a", Type: []byte(`["lust","string"]`)}}}}, `"a" has an invalid type`},
		{"type and nested type", &proto6.Schema{Block: &proto6.Schema_Block{Attributes: []*proto6.Schema_Attribute{{Name: "a", Type: str, NestedType: &proto6.Schema_Object{Nesting: proto6.Schema_Object_LIST}}}}}, `attribute "a" has both a type and a nested type`},
		{"nested type without nesting", &proto6.Schema{Block: &proto6.Schema_Block{Attributes: []*proto6.Schema_Attribute{{Name: "a", NestedType: &proto6.Schema_Object{}}}}}, `attribute "a": invalid nesting mode 0`},
		{"block without nesting", &proto6.Schema{Block: &proto6.Schema_Block{BlockTypes: []*proto6.Schema_NestedBlock{{TypeName: "b"}}}}, `block "b": invalid nesting mode 0`},
		{"bad attribute in nested block", &proto6.Schema{Block: &proto6.Schema_Block{BlockTypes: []*proto6.Schema_NestedBlock{{TypeName: "b", Nesting: proto6.Schema_NestedBlock_LIST, Block: &proto6.Schema_Block{Attributes: []*proto6.Schema_Attribute{nil}}}}}}, `block "b": "" has no type`},
		{"missing block is empty", &proto6.Schema{}, ""},
	}
	for _, tt := range tests6 {
		t.Run("v6 "+tt.name, func(t *testing.T) {
			_, err := schema6(tt.in)
			checkErr(t, err, tt.want)
		})
	}
	_, err := schema5(&proto5.Schema{Block: &proto5.Schema_Block{BlockTypes: []*proto5.Schema_NestedBlock{{TypeName: "b", Nesting: 9}}}})
	checkErr(t, err, `block "b": invalid nesting mode 9`)
	sch, err := schema5(nil)
	checkErr(t, err, "")
	if sch.Block == nil || len(sch.Block.Attributes) != 0 {
		t.Errorf("schema of nil = %#v, want an empty block", sch)
	}
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("error = %v, want none", err)
	case want != "" && (err == nil || !strings.HasPrefix(err.Error(), want)):
		t.Errorf("error = %v, want prefix %q", err, want)
	}
}
