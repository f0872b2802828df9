//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package local

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// terraformLock takes the lock Terraform and OpenTofu take on a state file
// (f): a non-blocking fcntl(2) write lock on all of it; errLockHeld when
// another process holds one.
func terraformLock(f *os.File) error {
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart}
	err := syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &lk)
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) {
		return errLockHeld
	}
	return err
}
