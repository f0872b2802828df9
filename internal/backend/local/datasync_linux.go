package local

import (
	"os"
	"syscall"
)

// syncData makes f's written data durable, and the metadata needed to read
// it back (its size), but not its modification time: fdatasync, which is
// all an append-only journal needs and cheaper than fsync.
func syncData(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			if err != nil {
				return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: err}
			}
			return nil
		}
	}
}
