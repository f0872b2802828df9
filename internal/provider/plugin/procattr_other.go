//go:build !linux

package plugin

import "os/exec"

// pluginCommand returns the command that starts a provider executable.
// Only Linux can tie a child's life to its parent's; elsewhere a provider
// outlives a rig killed with SIGKILL (CleanupClients ends them on every
// other exit).
func pluginCommand(path string) *exec.Cmd { return exec.Command(path) }
