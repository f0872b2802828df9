// Package ui owns everything rig shows to people and tools: the human plan
// diff, state and output listings, diagnostics with source snippets, apply
// progress lines, what rig recover found and did, the machine-readable -json
// message stream, and the JSON
// plan and state representations of `rig show -json`, each in the shapes
// OpenTofu prints so that readers and parsers of those formats work unchanged.
//
// Renderers are plain functions over values (a plan, a state, diagnostics)
// writing to an io.Writer; the apply observers (HumanHooks, JSONView,
// CountHooks) implement apply.Hooks and are safe for concurrent use.
//
// It imports internal/addrs, internal/apply, internal/dag, internal/diag,
// internal/ephemeral, internal/jsonformat, internal/marks, internal/plan,
// internal/planner, internal/provider, internal/recovery, internal/state
// and the hcl/cty libraries (including
// go-wordwrap, which hcl uses, for OpenTofu's exact line wrapping).
package ui
