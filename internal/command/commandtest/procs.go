package commandtest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// AwaitGone waits up to limit for live (the processes still there) to
// return none; past it, it kills them and fails naming them as what.
func AwaitGone(t testing.TB, limit time.Duration, what string, live func() []int) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		pids := live()
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range pids {
				if p, err := os.FindProcess(pid); err == nil {
					_ = p.Kill()
				}
			}
			t.Fatalf("%s %v outlived the killed rig", what, pids)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ProcessesOf returns the live processes running the executable at path
// (from /proc: Linux only; none elsewhere).
func ProcessesOf(path string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil || exe != path {
			continue
		}
		// A zombie has its exe link still; it is dead all the same.
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		pids = append(pids, pid)
	}
	return pids
}
