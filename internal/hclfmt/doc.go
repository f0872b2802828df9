// Package hclfmt owns the canonical style of configuration files: it
// rewrites the source of a .tf, .tofu or .tfvars file as `terraform fmt`
// and `tofu fmt` write it, byte for byte, and the unified diff `fmt -diff`
// shows of what it changed (diff.go).
//
// It may import internal/diag.
package hclfmt
