// Package hclfmt owns the canonical style of configuration files: it
// rewrites the source of a .tf, .tofu or .tfvars file as `terraform fmt`
// and `tofu fmt` write it, byte for byte; the unified diff `fmt -diff`
// shows of what it changed (diff.go); and fmt's walk over the files,
// directories and standard input it is given, listing, rewriting or
// checking them (files.go).
//
// It may import internal/diag.
package hclfmt
