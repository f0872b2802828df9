package local

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// errLockHeld is lockFile's error when another open file holds the lock.
var errLockHeld = errors.New("held by another process")

// errLockFileGoing is openLockFile's error when the file is being removed:
// until its last handle closes, Windows refuses to open it again.
var errLockFileGoing = errors.New("being removed")

// lockRegion is the byte range of the lock-info file that rig locks: one
// byte far past any content. Windows byte-range locks are mandatory, so a
// lock over the content would keep contenders from reading the holder's
// LockInfo there.
const (
	lockRegionOffsetHigh = 0x7fffffff
	lockRegionLength     = 1
)

// openLockFile opens (creating it) the lock-info file, sharing deletion
// too, so that Unlock can remove the file while it holds the lock, as on
// Unix.
func openLockFile(path string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p,
		windows.GENERIC_READ|windows.GENERIC_WRITE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_ALWAYS, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		// A file whose deletion is pending (its holder removed it and has
		// not closed it yet) cannot be opened until it is gone; a missing
		// permission looks the same, and Lock reports it once its retries
		// are over.
		return nil, fmt.Errorf("%w: %w", errLockFileGoing, &os.PathError{Op: "open", Path: path, Err: err})
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// lockFile takes a non-blocking exclusive LockFileEx lock on lockRegion of
// f: Windows releases it when the handle closes, so when its holder dies,
// however it dies.
func lockFile(f *os.File) error {
	ol := &windows.Overlapped{OffsetHigh: lockRegionOffsetHigh}
	err := windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0,
		lockRegionLength, 0, ol)
	switch {
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION), errors.Is(err, windows.ERROR_IO_PENDING):
		return errLockHeld
	case err != nil:
		return &os.PathError{Op: "LockFileEx", Path: f.Name(), Err: err}
	}
	return nil
}

// unlockFile releases lockFile's lock.
func unlockFile(f *os.File) error {
	ol := &windows.Overlapped{OffsetHigh: lockRegionOffsetHigh}
	err := windows.UnlockFileEx(windows.Handle(f.Fd()), 0, lockRegionLength, 0, ol)
	if err != nil && !errors.Is(err, windows.ERROR_NOT_LOCKED) {
		return &os.PathError{Op: "UnlockFileEx", Path: f.Name(), Err: err}
	}
	return nil
}
