//go:build unix

package provisioner

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup makes cmd the leader of a new process group and its
// cancellation kill the whole group, so that what the command started
// goes with it.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
