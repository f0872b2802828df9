package ctyjson

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// UnmarshalType decodes a type description such as ["list","string"], as
// go-cty's cty/json.UnmarshalType does, in time linear in its length.
// go-cty decodes each nested description from its own copy of the bytes,
// so a type nested d deep (a state output holding a list nested d deep)
// costs it a multiple of d times the text's length. Input this decoder
// does not handle, errors included, is left to go-cty, so results and
// error texts are go-cty's.
func UnmarshalType(data []byte) (cty.Type, error) {
	var raw any
	if err := json.Unmarshal(data, &raw); err == nil {
		if ty, ok := typeOf(raw); ok {
			return ty, nil
		}
	}
	return ctyjson.UnmarshalType(data)
}

// typeOf converts a decoded type description; false for anything that is
// not a well-formed description of a type without optional attributes.
func typeOf(raw any) (cty.Type, bool) {
	switch r := raw.(type) {
	case string:
		switch r {
		case "string":
			return cty.String, true
		case "number":
			return cty.Number, true
		case "bool":
			return cty.Bool, true
		case "dynamic":
			return cty.DynamicPseudoType, true
		}
		return cty.NilType, false
	case []any:
		if len(r) != 2 {
			return cty.NilType, false
		}
		kind, _ := r[0].(string)
		switch kind {
		case "list", "set", "map":
			ety, ok := typeOf(r[1])
			if !ok {
				return cty.NilType, false
			}
			switch kind {
			case "list":
				return cty.List(ety), true
			case "set":
				return cty.Set(ety), true
			}
			return cty.Map(ety), true
		case "object":
			attrs, ok := r[1].(map[string]any)
			if !ok {
				return cty.NilType, false
			}
			atys := make(map[string]cty.Type, len(attrs))
			for name, a := range attrs {
				if atys[name], ok = typeOf(a); !ok {
					return cty.NilType, false
				}
			}
			return cty.Object(atys), true
		case "tuple":
			elems, ok := r[1].([]any)
			if !ok {
				return cty.NilType, false
			}
			etys := make([]cty.Type, len(elems))
			for i, e := range elems {
				if etys[i], ok = typeOf(e); !ok {
					return cty.NilType, false
				}
			}
			return cty.Tuple(etys), true
		}
	}
	return cty.NilType, false
}

// MarshalType encodes ty as go-cty's cty/json.MarshalType does, in time
// linear in the result: go-cty's encoding of a nested type re-reads each
// nested level's bytes. Types it does not handle (capsule types) are left
// to go-cty.
func MarshalType(ty cty.Type) ([]byte, error) {
	if b, ok := appendType(nil, ty); ok {
		return b, nil
	}
	return ctyjson.MarshalType(ty)
}
