//go:build !windows

package local

import (
	"fmt"
	"os"
)

// renameFile renames from to to, replacing to: atomic on the same file
// system; durable once syncDir syncs the directory.
func renameFile(from, to string) error { return os.Rename(from, to) }

// syncDir fsyncs a directory so that renames and removals in it are durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}
