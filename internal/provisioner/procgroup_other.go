//go:build !unix && !windows

package provisioner

import "os/exec"

// ownProcessGroup leaves cmd as it is: cancellation kills the command only.
func ownProcessGroup(*exec.Cmd) {}
