package local

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"

	"github.com/rig-iac/rig/internal/backend"
)

// stateLock is the lock Terraform and OpenTofu look for, held as well as
// rig's own: an fcntl write lock on the state file itself. rig takes it as
// an open file description lock, which no other open or close of the file
// in this process releases, and moves it to each new state file before
// that file is renamed into place, so the path always names a locked file.
type stateLock struct {
	f       *os.File // the locked state file; nil when not held
	created bool     // the state file did not exist: Unlock removes it if still empty
}

// lockStateFile takes the fcntl lock on the state file, creating the file
// (empty, which reads as no state) as Terraform does when there is none,
// so that a Terraform or OpenTofu started meanwhile finds it locked. When
// one of them holds it, the error is a *LockError with the LockInfo it
// wrote to the lock-info file info.
func (s *Store) lockStateFile(info *os.File) error {
	_, statErr := os.Stat(s.path)
	f, err := os.OpenFile(s.path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("locking state %s: %w", s.path, err)
	}
	if err := ofdLock(f); err != nil {
		f.Close()
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
			return &backend.LockError{Info: readLockInfo(info),
				Err: fmt.Errorf("%w (Terraform or OpenTofu holds a lock on %s)", backend.ErrLocked, s.path)}
		}
		return fmt.Errorf("locking state %s: %w", s.path, err)
	}
	s.state = stateLock{f: f, created: errors.Is(statErr, os.ErrNotExist)}
	return nil
}

// ofdLock takes a non-blocking open file description write lock on all of f.
func ofdLock(f *os.File) error {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: io.SeekStart}
	for {
		err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
		if err != unix.EINTR {
			return err
		}
	}
}

// writeState replaces the state file with data (writeFileAtomic); while
// the state lock is held, the new file is locked before it takes the
// path, and the old one let go after.
func (s *Store) writeState(encode func(io.Writer) (bool, error)) (bool, error) {
	if s.state.f == nil {
		f, err := replaceFile(s.path, encode, nil)
		if err != nil {
			return false, err
		}
		return f != nil, closeFile(f)
	}
	f, err := replaceFile(s.path, encode, ofdLock)
	if err != nil || f == nil {
		return false, err
	}
	old := s.state.f
	s.state = stateLock{f: f}
	return true, old.Close()
}

// unlockStateFile lets go of the state lock; a state file the lock
// created and nothing wrote is removed first, leaving the directory as
// it was.
func (s *Store) unlockStateFile() error {
	st := s.state
	s.state = stateLock{}
	if st.f == nil {
		return nil
	}
	var rmErr error
	// Only while the path still names the file the lock created: a state
	// written meanwhile by a run without the lock (-lock=false) replaced it
	// and must stay.
	fi, err := st.f.Stat()
	pi, perr := os.Stat(s.path)
	if st.created && err == nil && perr == nil && fi.Size() == 0 && os.SameFile(fi, pi) {
		if err := os.Remove(s.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			rmErr = err
		}
	}
	return errors.Join(rmErr, st.f.Close())
}
