//go:build unix

package command

import "syscall"

var sigterm = syscall.SIGTERM
