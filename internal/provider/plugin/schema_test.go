package plugin

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

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

// withString returns m as a provider sends it with the string field num
// appended, unmarshaled into fresh: the field numbers of the wire, not the
// names of the generated code, are what a provider and rig share.
func withString[M proto.Message](t *testing.T, m M, num protowire.Number, s string, fresh M) M {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendString(b, s)
	if err := proto.Unmarshal(b, fresh); err != nil {
		t.Fatal(err)
	}
	return fresh
}

// The deprecation messages of protocol 5.10 and 6.10 (deprecation_message
// of Schema.Block, field 7, and of Schema.Attribute, 11 in protocol 5 and
// 12 in 6) reach the schema.
func TestDeprecationMessages(t *testing.T) {
	str := []byte(`"string"`)
	attr5 := withString(t, &proto5.Schema_Attribute{Name: "old", Type: str, Optional: true, Deprecated: true}, 11, "Use new.", &proto5.Schema_Attribute{})
	block5 := withString(t, &proto5.Schema_Block{Attributes: []*proto5.Schema_Attribute{attr5}, Deprecated: true}, 7, "Use another type.", &proto5.Schema_Block{})
	sch5, err := schema5(&proto5.Schema{Block: block5})
	if err != nil {
		t.Fatal(err)
	}
	if got := sch5.Block.Attributes["old"].DeprecationMessage; got != "Use new." {
		t.Errorf("v5 attribute message %q", got)
	}
	if got := sch5.Block.DeprecationMessage; got != "Use another type." {
		t.Errorf("v5 block message %q", got)
	}

	attr6 := withString(t, &proto6.Schema_Attribute{Name: "old", Type: str, Optional: true, Deprecated: true}, 12, "Use new.", &proto6.Schema_Attribute{})
	block6 := withString(t, &proto6.Schema_Block{Attributes: []*proto6.Schema_Attribute{attr6}}, 7, "Use another type.", &proto6.Schema_Block{})
	sch6, err := schema6(&proto6.Schema{Block: block6})
	if err != nil {
		t.Fatal(err)
	}
	if got := sch6.Block.Attributes["old"].DeprecationMessage; got != "Use new." {
		t.Errorf("v6 attribute message %q", got)
	}
	if got := sch6.Block.DeprecationMessage; got != "Use another type." {
		t.Errorf("v6 block message %q", got)
	}
	if sch, _ := schema6(&proto6.Schema{}); sch.Block.DeprecationMessage != "" {
		t.Errorf("v6 missing block message %q, want none", sch.Block.DeprecationMessage)
	}
}
