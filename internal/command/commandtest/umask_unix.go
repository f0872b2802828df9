//go:build unix

package commandtest

import (
	"syscall"
	"testing"
)

// WithUmask runs the rest of the test with the process's umask set to
// mask, so that a file's mode on disk shows what rig asked for.
func WithUmask(t testing.TB, mask int) {
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}
