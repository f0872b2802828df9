package plugin

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	proto5 "github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
	proto6 "github.com/rig-iac/rig/internal/provider/plugin/tfplugin6"
)

// withString returns m as a newer provider sends it: marshaled with a
// string field num appended (a field of protocol 5.10 or 6.10 that the
// generated code does not know), and unmarshaled again into a new m.
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

// The deprecation messages of protocol 5.10 and 6.10 (Schema.Block and
// Schema.Attribute's deprecation_message) are read from the wire.
func TestDeprecationMessages(t *testing.T) {
	str := []byte(`"string"`)
	attr5 := withString(t, &proto5.Schema_Attribute{Name: "old", Type: str, Optional: true, Deprecated: true}, deprecationMessage5Attribute, "Use new.", &proto5.Schema_Attribute{})
	block5 := withString(t, &proto5.Schema_Block{Attributes: []*proto5.Schema_Attribute{attr5}, Deprecated: true}, deprecationMessage5Block, "Use another type.", &proto5.Schema_Block{})
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

	attr6 := withString(t, &proto6.Schema_Attribute{Name: "old", Type: str, Optional: true, Deprecated: true}, deprecationMessage6Attribute, "Use new.", &proto6.Schema_Attribute{})
	sch6, err := schema6(&proto6.Schema{Block: &proto6.Schema_Block{Attributes: []*proto6.Schema_Attribute{attr6}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := sch6.Block.Attributes["old"].DeprecationMessage; got != "Use new." {
		t.Errorf("v6 attribute message %q", got)
	}
	if got := sch6.Block.DeprecationMessage; got != "" {
		t.Errorf("v6 block message %q, want none", got)
	}
}
