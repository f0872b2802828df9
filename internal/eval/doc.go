// Package eval evaluates a configuration tree's expressions for one plan or
// apply: input variables (the root's as given, a child module's from its
// call's arguments), local values, module outputs and module call values,
// the expansion of count and for_each on resources and module calls, and
// condition rules, the provider-defined functions of each module and the
// configuration of providers. Resource values come from the caller
// (ResourceValues), so that planning and applying, which know different
// values, share it; New is the one setup plan, apply, import and
// validation share.
//
// It imports internal/addrs, internal/checks, internal/config,
// internal/diag, internal/lang, internal/marks, internal/parallel,
// internal/provider and the hcl/cty libraries.
package eval
