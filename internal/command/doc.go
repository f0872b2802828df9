// Package command owns the command-line interface: one file per rig
// command, each parsing its flags with the standard flag package and wiring
// configuration loading, the state backend, providers, planning, applying
// and rendering together. It is the only package that chooses
// implementations.
//
// It may import every other internal package.
package command
