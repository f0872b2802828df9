// Package plan decides, for every object in configuration and state, what
// must happen (no-op, create, update, replace delete-first or create-first,
// delete) and why, including create_before_destroy inheritance and the
// dependencies each object records, and returns a Plan value; reasons.go
// derives from a Plan why each change does what it does (ReasonIndex), for
// every view to tell the same. It persists
// nothing. It also serves the other operations that need the
// configuration's graph: Validate, Import (`rig import`, which returns the
// new state) and ResourceGraph (`rig graph`); evaluation itself is
// internal/eval's.
//
// It imports internal/adaptive, internal/addrs, internal/checks,
// internal/config, internal/dag, internal/diag, internal/eval,
// internal/lang, internal/marks, internal/parallel, internal/provider,
// internal/provisioner, internal/state and the hcl/cty libraries.
package plan
