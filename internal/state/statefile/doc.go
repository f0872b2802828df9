// Package statefile owns the version-4 state file: the JSON form in which
// Terraform (0.12 and later) and OpenTofu record state, read into a
// state.State and written back byte for byte as they write it (key order,
// two-space indentation, resource and instance order, HTML-safe string
// escaping, trailing newline), so that a state moves between rig and those
// tools in both directions.
//
// Attributes, sensitive attribute paths, resource identities and check
// results are carried as raw JSON: reading compacts them (escaping <, > and
// & as json.Marshal does), writing re-indents them in place, and nothing
// here decodes them.
//
// It imports only the standard library, internal/addrs, internal/ctyjson,
// internal/parallel, internal/state and go-cty.
package statefile
