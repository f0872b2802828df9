package builtin

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// withoutEmptyStore returns terraform_data's stored object without the
// "store" attribute Terraform 1.16 writes on every object (null unless its
// configuration has a store block), so that a state Terraform 1.16 wrote
// is read as rig's schema has it. An object whose store holds a value is
// an error: rig has no store block, and dropping it would lose the value.
func withoutEmptyStore(raw []byte) ([]byte, error) {
	if !bytes.Contains(raw, []byte(`"store"`)) {
		return raw, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return raw, nil // the decoder reports it
	}
	store, ok := obj["store"]
	if !ok {
		return raw, nil
	}
	if !bytes.Equal(bytes.TrimSpace(store), []byte("null")) {
		return nil, fmt.Errorf("the object has a store block, which Terraform 1.16 added to terraform_data and rig does not support")
	}
	delete(obj, "store")
	return json.Marshal(obj)
}
