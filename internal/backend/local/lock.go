//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows

package local

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rig-iac/rig/internal/backend"
)

// heldLock is the lock a Store holds: the open lock-info file, locked
// (lockFile).
type heldLock struct {
	f    *os.File // nil when not locked
	info backend.LockInfo
}

// testHookLockOpened, when set by a test, runs after Lock opens the
// lock-info file and before it locks it, to interleave other lockers.
var testHookLockOpened func()

// maxLockRetries bounds the retries when the lock-info file is replaced
// between opening and locking it; each retry means another process took and
// released the lock meanwhile, so hitting the bound needs heavy contention.
const maxLockRetries = 100

// Lock implements backend.Store: a non-blocking exclusive lock on the
// lock-info file (lockFile), which then holds info as JSON until Unlock.
func (s *Store) Lock(ctx context.Context, info backend.LockInfo) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("locking state %s: %w", s.path, err)
	}
	if s.lock.f != nil {
		held := s.lock.info
		return "", &backend.LockError{Info: &held, Err: backend.ErrLocked}
	}
	if info.ID == "" {
		info.ID = backend.NewLockInfo(info.Operation).ID
	}
	info.Path = s.path
	if err := os.MkdirAll(filepath.Dir(s.lockPath), 0o755); err != nil {
		return "", fmt.Errorf("locking state %s: %w", s.path, err)
	}
	var going error // the last errLockFileGoing
	for range maxLockRetries {
		f, err := s.tryLock()
		if errors.Is(err, errLockFileGoing) {
			going = err
			time.Sleep(time.Millisecond) // until the holder closes it
			continue
		}
		if err != nil {
			return "", err
		}
		if f == nil {
			continue // the file was replaced under us: lock the new one
		}
		if err := s.lockStateFile(f); err != nil {
			unlockAndClose(f)
			return "", err
		}
		data, err := json.Marshal(info)
		if err == nil {
			err = f.Truncate(0)
		}
		if err == nil {
			_, err = f.WriteAt(data, 0)
		}
		if err != nil {
			_ = s.unlockStateFile()
			unlockAndClose(f)
			return "", fmt.Errorf("locking state %s: writing %s: %w", s.path, s.lockPath, err)
		}
		s.lock = heldLock{f: f, info: info}
		return info.ID, nil
	}
	if going != nil {
		return "", fmt.Errorf("locking state %s: %w", s.path, going)
	}
	return "", fmt.Errorf("locking state %s: %s kept being replaced while locking it", s.path, s.lockPath)
}

// tryLock opens the lock-info file and locks it. It returns the locked
// file; nil, nil when the file was unlinked or replaced by another process
// between the open and the lock (the caller retries); an errLockFileGoing
// error when the file cannot be opened until its holder closes it (the
// caller retries too); or a *LockError when another holder has it.
func (s *Store) tryLock() (*os.File, error) {
	f, err := openLockFile(s.lockPath)
	if errors.Is(err, errLockFileGoing) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("locking state %s: %w", s.path, err)
	}
	if testHookLockOpened != nil {
		testHookLockOpened()
	}
	err = lockFile(f)
	if errors.Is(err, errLockHeld) {
		info := readLockInfo(f)
		f.Close()
		return nil, &backend.LockError{Info: info, Err: backend.ErrLocked}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking state %s: %s: %w", s.path, s.lockPath, err)
	}
	// The holder we waited for may have removed the file (Unlock does) and
	// another locker may have created a new one: our lock on the old file
	// then excludes nobody. Lock only what the path still names.
	fi, ferr := f.Stat()
	pi, perr := os.Stat(s.lockPath)
	if ferr != nil || perr != nil || !os.SameFile(fi, pi) {
		unlockAndClose(f)
		return nil, nil
	}
	return f, nil
}

// readLockInfo reads the holder's LockInfo from the lock-info file, or nil.
// A holder writes it just after taking the lock, so an empty or partial
// file is read again a few times.
func readLockInfo(f *os.File) *backend.LockInfo {
	for try := 0; ; try++ {
		buf := make([]byte, 64<<10)
		n, _ := f.ReadAt(buf, 0)
		var info backend.LockInfo
		if n > 0 && json.Unmarshal(buf[:n], &info) == nil {
			return &info
		}
		if try == 4 {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func unlockAndClose(f *os.File) {
	_ = unlockFile(f)
	_ = f.Close()
}

// Unlock implements backend.Store: it removes the lock-info file while it
// still holds the lock (so that a process waiting on the old file notices
// the change and retries), then releases the lock.
func (s *Store) Unlock(ctx context.Context, id string) error {
	if s.lock.f == nil {
		return fmt.Errorf("unlocking state %s: this store holds no lock", s.path)
	}
	if id != s.lock.info.ID {
		return fmt.Errorf("unlocking state %s: lock ID %q does not match the held lock %q", s.path, id, s.lock.info.ID)
	}
	f := s.lock.f
	s.lock = heldLock{}
	stErr := s.unlockStateFile()
	rmErr := os.Remove(s.lockPath)
	if errors.Is(rmErr, os.ErrNotExist) {
		rmErr = nil
	}
	unErr := unlockFile(f)
	clErr := f.Close()
	if err := errors.Join(stErr, rmErr, unErr, clErr); err != nil {
		return fmt.Errorf("unlocking state %s: %w", s.path, err)
	}
	return nil
}
