//go:build unix

package cloudbench

import (
	"os"
	"syscall"
)

// maxRSSKiB is the largest resident set the finished process had, in KiB
// (bytes on darwin, whose getrusage counts them so).
func maxRSSKiB(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
