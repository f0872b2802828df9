//go:build !linux

package local

import "os"

// syncData makes f's written data durable (see the Linux version).
func syncData(f *os.File) error { return f.Sync() }
