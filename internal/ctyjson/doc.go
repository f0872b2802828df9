// Package ctyjson decodes JSON into cty values of a known type, giving the
// same results as go-cty's cty/json.Unmarshal in a single pass over the bytes
// and with far fewer allocations, and encodes values as go-cty's
// cty/json.Marshal does, byte for byte, without its reflection.
//
// It exists for the hot path of planning against a large state: every stored
// object's attributes are decoded with its resource schema's type, and
// go-cty's token-by-token decoder dominated that cost.
//
// Unmarshal is a drop-in replacement: when it succeeds its value is RawEquals
// to go-cty's, and whenever its fast path meets input it does not handle
// (invalid JSON, a value that does not fit the type, capsule types, duplicate
// keys in a dynamic value, very deep nesting, top-level trailing data) it
// returns go-cty's own result, so error texts are go-cty's.
//
// It imports only the standard library and go-cty.
package ctyjson
