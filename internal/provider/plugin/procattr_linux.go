package plugin

import (
	"os/exec"
	"syscall"
)

// pluginCommand returns the command that starts a provider executable. On
// Linux the kernel sends the provider SIGKILL when rig dies, so that a rig
// killed with SIGKILL (which runs no cleanup) leaves no provider behind.
// The signal follows the death of the thread that started the process: Go
// ends a thread only when a goroutine locked to it exits, which rig's
// provider starts never do.
func pluginCommand(path string) *exec.Cmd {
	cmd := exec.Command(path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd
}
