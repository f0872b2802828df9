// Package builtin owns the providers compiled into rig: the
// terraform.io/builtin/terraform provider with its terraform_data resource
// type, which stores a value, follows the standard resource lifecycle and
// records its objects in state exactly as OpenTofu does, its
// terraform_remote_state data source, which reads another state's root
// outputs through a reader its user supplies, and its functions
// encode_tfvars, decode_tfvars and encode_expr.
//
// It imports internal/addrs, internal/ctyjson, internal/diag,
// internal/provider and the hcl/cty libraries.
package builtin
