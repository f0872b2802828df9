//go:build !unix

package cloudbench

import "os"

// maxRSSKiB is zero where the process's peak resident set is not reported.
func maxRSSKiB(*os.ProcessState) int64 { return 0 }
