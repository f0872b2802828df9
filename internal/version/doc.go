// Package version owns rig's version numbers, each stated once: Rig, the
// release of rig itself, and Terraform, the Terraform language and
// state-format version rig is compatible with and reports wherever
// OpenTofu and Terraform report their own version (a state file's
// terraform_version, the -json stream's version message, the JSON plan
// and state representations, a provider's ConfigureProvider request).
//
// It imports nothing.
package version
