//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package local

import (
	"errors"
	"os"
	"syscall"
)

// errLockHeld is lockFile's error when another open file holds the lock.
var errLockHeld = errors.New("held by another process")

// errLockFileGoing is openLockFile's error when the file is being removed
// and cannot be opened until it is gone; Unix never returns it.
var errLockFileGoing = errors.New("being removed")

// openLockFile opens (creating it) the lock-info file.
func openLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
}

// lockFile takes a non-blocking exclusive flock(2) on f: the kernel
// releases it when the last descriptor of the open file closes, so when
// its holder dies, however it dies.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == syscall.EINTR:
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errLockHeld
		case err != nil:
			return &os.PathError{Op: "flock", Path: f.Name(), Err: err}
		}
		return nil
	}
}

// unlockFile releases lockFile's lock.
func unlockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
