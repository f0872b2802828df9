// Package hclfmt owns the canonical style of configuration files: it
// rewrites the source of a .tf, .tofu or .tfvars file as `terraform fmt`
// and `tofu fmt` write it, byte for byte.
//
// It may import internal/diag.
package hclfmt
