package plugin

import (
	"errors"

	"golang.org/x/sys/windows"
)

// processGone reports whether pid has ended, waiting up to 30 s: a busy
// machine ends processes late.
func processGone(pid int) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if errors.Is(err, windows.ERROR_INVALID_PARAMETER) {
		return true // no such process
	}
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, 30000)
	return err == nil && ev == windows.WAIT_OBJECT_0
}
