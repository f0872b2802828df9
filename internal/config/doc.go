// Package config owns the configuration of one module: it reads the .tf,
// .tf.json, .tofu and .tofu.json files of a directory into a typed Module
// whose every element keeps its source range, merging override files into
// the blocks of the others, and it validates the meta-arguments (count, for_each,
// provider, depends_on, lifecycle, provisioner, connection) the way OpenTofu
// does, with OpenTofu's diagnostic wording.
//
// It evaluates nothing: expressions are kept as hcl.Expression and bodies as
// hcl.Body, to be evaluated later by internal/lang against values the engine
// supplies. The only exceptions are values that the language requires to be
// literals (lifecycle flags, variable defaults and types, provider aliases,
// descriptions), which are decoded with a nil evaluation context so that any
// reference or function call is reported by hcl itself ("Variables not
// allowed", "Function calls not allowed") at the expression's range.
//
// Number literals in native syntax, and numbers in JSON configuration
// files, are bounded to about 1e±1000 in magnitude ("Number literal out of
// range" at the literal, numbers.go): anything that prints a larger one
// would write out all its digits. ValueNumberOutOfRange applies the same
// bound to input values.
//
// Resource bodies may contain "dynamic" blocks: they are left in Config
// unexpanded, and lang.Scope.EvalBlock expands them when the body is decoded
// against the provider's schema.
//
// It imports only the standard library, hcl/v2, go-cty, internal/diag,
// internal/addrs, internal/parallel and internal/version.
package config
