// Package addrs owns addresses: immutable, comparable values naming
// resources, resource instances, deposed objects, providers and provider
// configurations, usable directly as map keys, with String in user syntax,
// Less for deterministic sorting, and parsers for the syntax users type
// (-target, -replace, state show).
//
// It imports only the standard library and the hcl/cty libraries.
package addrs
