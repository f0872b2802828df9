package local

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"

	"github.com/rig-iac/rig/internal/backend"
)

// terraformLockLengthHigh is the high 32 bits of the length of the byte
// range Terraform and OpenTofu lock on Windows, from offset 0: everything
// a state file can hold.
const terraformLockLengthHigh = 0xffffffff

// lockStateFile reports a Terraform or OpenTofu process holding its
// LockFileEx lock on the state file, with the LockInfo it wrote to the
// lock-info file (info). rig does not hold that lock itself: Windows
// byte-range locks are mandatory, so while held no other handle could
// read the state file, and rig replaces the file by renaming a new one
// over it rather than writing through one handle.
func (s *Store) lockStateFile(info *os.File) error {
	sf, err := os.Open(s.path)
	if err != nil {
		return nil // no state file, so no lock on it
	}
	defer sf.Close()
	h := windows.Handle(sf.Fd())
	ol := new(windows.Overlapped)
	err = windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0,
		0, terraformLockLengthHigh, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return &backend.LockError{
			Info: readLockInfo(info),
			Err:  fmt.Errorf("%w (Terraform or OpenTofu holds a lock on %s)", backend.ErrLocked, s.path),
		}
	}
	if err != nil {
		return nil // a file that cannot be locked is not locked by them either
	}
	_ = windows.UnlockFileEx(h, 0, 0, terraformLockLengthHigh, ol)
	return nil
}
