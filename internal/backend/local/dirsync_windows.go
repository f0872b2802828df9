package local

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// renameFile renames from to to, replacing to, and returns once the
// rename is on disk (MOVEFILE_WRITE_THROUGH): Windows cannot sync a
// directory. Another process that has to open without sharing deletion (a
// virus scanner, an indexer, a reader of the old state) makes the rename
// fail for a moment; it is retried for up to two seconds.
func renameFile(from, to string) error {
	f, err := windows.UTF16PtrFromString(from)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	t, err := windows.UTF16PtrFromString(to)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		err = windows.MoveFileEx(f, t, windows.MOVEFILE_REPLACE_EXISTING|windows.MOVEFILE_WRITE_THROUGH)
		transient := errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION)
		if err == nil || !transient || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}

// syncDir does nothing: Windows has no way to sync a directory (a
// directory handle cannot be flushed), and renameFile writes its rename
// through instead; NTFS journals the directory's metadata.
func syncDir(dir string) error { return nil }
