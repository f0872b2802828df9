package state

import (
	"bytes"
	"encoding/json"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// withoutUnknownNulls returns raw, an object's attributes in JSON, without
// the top-level attributes ty does not have whose value is null, and
// whether it dropped any. A newer release of a provider (Terraform 1.16's
// terraform_data has a store block) may record an attribute an older
// schema lacks; recorded as null it says nothing, and the object decodes
// without it. A non-null one is kept, so the decoder still refuses it.
func withoutUnknownNulls(raw []byte, ty cty.Type) ([]byte, bool) {
	if !ty.IsObjectType() {
		return raw, false
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return raw, false
	}
	dropped := false
	for name, v := range obj {
		if !ty.HasAttribute(name) && bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			delete(obj, name)
			dropped = true
		}
	}
	if !dropped {
		return raw, false
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return raw, false
	}
	return out, true
}

// decodeAttrs decodes raw with ty, tolerating null attributes ty does not
// have (withoutUnknownNulls); the common case decodes once.
func decodeAttrs(raw []byte, ty cty.Type) (cty.Value, error) {
	v, err := ctyjson.Unmarshal(raw, ty)
	if err == nil {
		return v, nil
	}
	if trimmed, ok := withoutUnknownNulls(raw, ty); ok {
		if v, err2 := ctyjson.Unmarshal(trimmed, ty); err2 == nil {
			return v, nil
		}
	}
	return v, err
}
