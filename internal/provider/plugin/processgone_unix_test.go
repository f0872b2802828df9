//go:build unix

package plugin

import (
	"errors"
	"syscall"
	"time"
)

// processGone reports whether pid has ended (and was reaped), waiting up to
// 30 s: a busy machine reaps late.
func processGone(pid int) bool {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
	}
	return false
}
