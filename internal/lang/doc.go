// Package lang owns evaluation of configuration expressions: it finds the
// references an expression or body makes (ReferencesInExpr, ParseRef),
// builds evaluation scopes from values the engine supplies through the Data
// interface (Scope), holds the function library (Functions: OpenTofu 1.10's
// built-ins, each also named core::NAME) and adds the provider-defined
// functions the engine supplies (ProviderFunctions, with OpenTofu's
// diagnostics for calls to missing ones), expands count
// and for_each (EvalCount, EvalForEach), and checks statically that every
// reference in a module names something declared (CheckReferences), with
// OpenTofu's diagnostic wording.
//
// Unknown values flow through evaluation: an expression that depends on an
// unknown value evaluates to an unknown value, never to an error, except
// where OpenTofu itself requires a known value (count, for_each).
//
// Values marked Sensitive (by sensitive() or by the engine) stay marked
// through evaluation; cty carries the mark into everything derived from them.
//
// It imports only the standard library, hcl/v2, go-cty, go-cty-yaml, the
// libraries of a few functions (golang.org/x/crypto, golang.org/x/text,
// doublestar, google/uuid), internal/diag, internal/addrs,
// internal/config, internal/marks and internal/parallel.
package lang
