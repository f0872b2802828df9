// Package cli runs rig's command line in-process for the tests of the
// packages beside internal/command that drive rig as its users do
// (killtest, proctest): commandtest's harness over command.Main, and the
// TestMain those packages share. internal/command's own tests, inside the
// package, run command.Main directly.
//
// It imports internal/command, internal/command/commandtest and
// internal/provider/plugin.
package cli
