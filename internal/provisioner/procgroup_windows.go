package provisioner

import (
	"os/exec"
	"strconv"
)

// ownProcessGroup makes cmd's cancellation end the whole tree of processes
// it started, as a process group's kill does on Unix: Windows has no
// process groups to signal, so taskkill /T walks the tree from cmd's
// process; should that fail, the process alone is killed.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.Cancel = func() error {
		tree := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid))
		if err := tree.Run(); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
}
