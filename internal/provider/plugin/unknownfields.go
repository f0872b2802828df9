package plugin

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Fields of the plugin protocol newer than the generated code rig carries
// (protocol 5.10 and 6.10), read from a message's unknown fields.
const (
	// deprecationMessage5Block and deprecationMessage5Attribute are the
	// deprecation_message fields of tfplugin5 Schema.Block and
	// Schema.Attribute.
	deprecationMessage5Block     protowire.Number = 7
	deprecationMessage5Attribute protowire.Number = 11
	// deprecationMessage6Block and deprecationMessage6Attribute are those
	// of tfplugin6.
	deprecationMessage6Block     protowire.Number = 7
	deprecationMessage6Attribute protowire.Number = 12
)

// unknownString returns the string field num of m that the generated code
// does not know, or "" when m has none (or it is not a string).
func unknownString(m protoreflect.ProtoMessage, num protowire.Number) string {
	if m == nil || !m.ProtoReflect().IsValid() {
		return ""
	}
	b := m.ProtoReflect().GetUnknown()
	var out string
	for len(b) > 0 {
		n, typ, l := protowire.ConsumeTag(b)
		if l < 0 {
			return out
		}
		b = b[l:]
		if n == num && typ == protowire.BytesType {
			v, l := protowire.ConsumeBytes(b)
			if l < 0 {
				return out
			}
			out, b = string(v), b[l:]
			continue
		}
		l = protowire.ConsumeFieldValue(n, typ, b)
		if l < 0 {
			return out
		}
		b = b[l:]
	}
	return out
}
