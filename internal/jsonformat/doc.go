// Package jsonformat owns the machine-readable JSON representations rig
// writes, in the shapes OpenTofu and Terraform document, so that tools that
// read theirs read rig's: the configuration (a JSON plan's
// "configuration", show -json -config, show -module), the provider schemas
// (providers schema -json), the function signatures (metadata functions
// -json), the JSON plan and state (show -json), the validate document, the
// reasons of rig_reasons, the messages of the -json stream, and the small
// documents of output, modules and version -json. It builds
// the shapes of configuration and schemas itself; internal/ui, which
// renders plans, states and diagnostics, fills in the shapes of what it
// renders.
//
// It imports internal/addrs, internal/config, internal/getproviders,
// internal/lang, internal/provider and internal/state.
package jsonformat
