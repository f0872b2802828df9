// Package provider owns the contract between the engine and providers: the
// Interface every provider implements (schema, validate, configure, plan,
// apply, read, import, upgrade, provider-defined functions), the schema
// model and its conversions to cty types and HCL decoder specs, the
// engine-side rules that build a proposed new object from prior state and
// configuration and that check the objects providers plan and apply, and the per-run Set of provider instances. Subpackages
// hold implementations: builtin (terraform_data and the built-in
// functions) and providertest (a recording fake).
//
// It imports internal/adaptive, internal/addrs, internal/diag,
// internal/marks, internal/parallel, internal/version and the hcl/cty
// libraries.
package provider
