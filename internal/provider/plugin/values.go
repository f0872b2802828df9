package plugin

import (
	"fmt"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// encodeValue encodes v as a MessagePack DynamicValue of type ty, the form
// every provider accepts. Marks (sensitivity) are dropped; a null or zero
// cty.Value becomes a null of ty; unknown and refined unknown values are
// kept. A value of another type is converted to ty first.
func encodeValue(v cty.Value, ty cty.Type) (dynamicValue, error) {
	if v.IsNull() {
		// IsNull also holds for cty.NilVal, which has no type.
		v = cty.NullVal(ty)
	}
	// Values reach providers unmarked; a marked one (which msgpack
	// refuses) is unmarked then, rather than every value walked first.
	b, err := ctymsgpack.Marshal(v, ty)
	if err != nil && v.ContainsMarked() {
		v, _ = v.UnmarkDeep()
		b, err = ctymsgpack.Marshal(v, ty)
	}
	if err != nil {
		return dynamicValue{}, fmt.Errorf("encoding value as %s: %w", ty.FriendlyName(), err)
	}
	return dynamicValue{msgpack: b}, nil
}

// nullValue is the encoded null of type ty.
func nullValue(ty cty.Type) dynamicValue {
	dv, err := encodeValue(cty.NullVal(ty), ty)
	if err != nil {
		// msgpack encodes every null as the single nil byte.
		return dynamicValue{msgpack: []byte{0xc0}}
	}
	return dv
}

// decodeValue decodes a DynamicValue a provider returned as a value of type
// ty: MessagePack when present, else JSON, else null. Malformed input is an
// error, never a panic.
func decodeValue(dv dynamicValue, ty cty.Type) (v cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = cty.NilVal, fmt.Errorf("malformed value: %v", r)
		}
	}()
	switch {
	case len(dv.msgpack) > 0:
		v, err = ctymsgpack.Unmarshal(dv.msgpack, ty)
	case len(dv.json) > 0:
		v, err = ctyjson.Unmarshal(dv.json, ty)
	default:
		return cty.NullVal(ty), nil
	}
	if err != nil {
		return cty.NilVal, fmt.Errorf("decoding value as %s: %w", ty.FriendlyName(), err)
	}
	return v, nil
}

// attributeType decodes the JSON type of an attribute, function parameter or
// function result ("string", ["list","number"], "dynamic", …) into a cty type.
func attributeType(name string, raw []byte) (cty.Type, error) {
	if len(raw) == 0 {
		return cty.NilType, fmt.Errorf("%q has no type", name)
	}
	ty, err := ctyjson.UnmarshalType(raw)
	if err != nil {
		return cty.NilType, fmt.Errorf("%q has an invalid type %s: %w", name, raw, err)
	}
	return ty, nil
}

// Protocol nesting-mode numbers, equal in both protocol versions for
// nested blocks (GROUP only there) and nested attribute objects (v6).
const (
	wireNestingSingle = 1
	wireNestingList   = 2
	wireNestingSet    = 3
	wireNestingMap    = 4
	wireNestingGroup  = 5
)

// nestingMode converts a protocol nesting mode. GROUP is valid only for
// nested blocks.
func nestingMode(mode int32, allowGroup bool) (provider.NestingMode, error) {
	switch mode {
	case wireNestingSingle:
		return provider.NestingSingle, nil
	case wireNestingList:
		return provider.NestingList, nil
	case wireNestingSet:
		return provider.NestingSet, nil
	case wireNestingMap:
		return provider.NestingMap, nil
	case wireNestingGroup:
		if allowGroup {
			return provider.NestingGroup, nil
		}
	}
	return provider.NestingInvalid, fmt.Errorf("invalid nesting mode %d", mode)
}

// stringKind converts a protocol string kind (the same numbers in
// protocols 5 and 6: 0 plain, 1 markdown); an unknown kind is plain.
func stringKind(kind int32) provider.StringKind {
	if kind == 1 {
		return provider.StringMarkdown
	}
	return provider.StringPlain
}

// newDiagnostic builds the rig form of a provider diagnostic. A diagnostic
// about an attribute keeps its path and names it at the end of its detail
// until it is placed in the configuration (diag.Diagnostics.InBody).
// Protocol severity INVALID (0) counts as an error.
func newDiagnostic(warning bool, summary, detail string, path cty.Path) diag.Diagnostic {
	d := diag.Diagnostic{Severity: diag.Error, Summary: summary, Detail: detail}
	if warning {
		d.Severity = diag.Warning
	}
	if len(path) > 0 {
		d.AttributePath = path
		at := diag.AttributeNote(path)
		if d.Detail == "" {
			d.Detail = at
		} else {
			d.Detail += "\n\n" + at
		}
	}
	return d
}
