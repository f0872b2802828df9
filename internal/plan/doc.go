// Package plan decides, for every object in configuration and state, what
// must happen (no-op, create, update, replace delete-first or create-first,
// delete) and why, including create_before_destroy inheritance, and returns
// a Plan value. It persists nothing. It also evaluates for the other
// operations that need the configuration: Validate, Import (`rig import`,
// which returns the new state) and the provider-defined functions
// expressions may call (ProviderFunctions).
//
// It imports internal/addrs, internal/diag, internal/config, internal/lang,
// internal/state, internal/provider and the hcl/cty libraries.
package plan
