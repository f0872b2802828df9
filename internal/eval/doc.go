// Package eval evaluates a configuration tree's expressions for one plan or
// apply: input variables (the root's as given, a child module's from its
// call's arguments), local values, module outputs and module call values,
// the expansion of count and for_each on resources and module calls, and
// condition rules. Resource values come from the caller (ResourceValues),
// so that planning and applying, which know different values, share it.
//
// It imports internal/addrs, internal/config, internal/diag, internal/lang
// and the hcl/cty libraries.
package eval
