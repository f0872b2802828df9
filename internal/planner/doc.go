// Package planner makes plans: for every object in configuration and state
// it decides what must happen (no-op, create, update, replace delete-first
// or create-first, delete, forget) and why, walking the configuration's
// reference graph with -target and -exclude, moved, removed and import
// blocks, create_before_destroy inheritance and the dependencies each
// object records, and returns a plan.Plan. It persists nothing. It also
// serves the other operations that need the configuration's graph:
// Validate, Import (`rig import`, which returns the new state),
// GenerateConfig (-generate-config-out), ResourceGraph (`rig graph`) and
// StateValues and PlannedValues (the values of recorded or planned objects,
// for expressions evaluated outside a plan); evaluation itself is
// internal/eval's.
//
// It imports internal/adaptive, internal/addrs, internal/checks, internal/config,
// internal/dag, internal/diag, internal/eval, internal/instance, internal/lang,
// internal/marks, internal/parallel, internal/plan, internal/provider,
// internal/provisioner, internal/state and the hcl/cty libraries.
package planner
