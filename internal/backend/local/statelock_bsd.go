//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package local

import (
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/rig-iac/rig/internal/backend"
)

// lockStateFile reports a Terraform or OpenTofu process holding its lock
// on the state file (these systems have no open file description locks
// for rig to take the same lock with).
func (s *Store) lockStateFile(info *os.File) error { return s.checkForeignLock(info) }

// checkForeignLock reports a Terraform or OpenTofu process holding its
// fcntl lock on the state file, with the LockInfo it wrote to the
// lock-info file (f).
func (s *Store) checkForeignLock(f *os.File) error {
	sf, err := os.Open(s.path)
	if err != nil {
		return nil // no state file, so no lock on it
	}
	defer sf.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart}
	if err := syscall.FcntlFlock(sf.Fd(), syscall.F_GETLK, &lk); err != nil || lk.Type == syscall.F_UNLCK {
		return nil
	}
	return &backend.LockError{
		Info: readLockInfo(f),
		Err:  fmt.Errorf("%w by process %d (Terraform or OpenTofu holds a lock on %s)", backend.ErrLocked, lk.Pid, s.path),
	}
}
