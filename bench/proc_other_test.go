//go:build !unix

package bench

import (
	"os"
	"time"
)

// maxRSSKiB is zero where the process's peak resident set is not reported.
func maxRSSKiB(*os.ProcessState) int64 { return 0 }

// cpuTime is zero where the process's CPU time is not read.
func cpuTime() time.Duration { return 0 }
