package local

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// terraformLock takes the lock Terraform and OpenTofu take on a state file
// (f) on Windows: a non-blocking exclusive LockFileEx lock on the byte
// range from 0 of length 0xffffffff00000000; errLockHeld when another
// handle holds it.
func terraformLock(f *os.File) error {
	err := windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0,
		0, terraformLockLengthHigh, new(windows.Overlapped))
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return errLockHeld
	}
	return err
}
