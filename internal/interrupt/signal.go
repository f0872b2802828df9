package interrupt

import "syscall"

// sigterm is the signal, besides os.Interrupt, that asks rig to stop as an
// interrupt does. On Unix it is SIGTERM (kill's default, what CI runners
// and container runtimes send). Windows has no SIGTERM of its own: Go
// delivers a console's close, logoff and shutdown events as
// syscall.SIGTERM, and Ctrl-C and Ctrl-Break as os.Interrupt; Windows
// still ends the process a few seconds after a close event, so there rig
// may not finish the shutdown it starts.
var sigterm = syscall.SIGTERM
