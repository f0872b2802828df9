package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProfiles: with RIG_CPU_PROFILE, RIG_HEAP_PROFILE and
// RIG_PEAK_HEAP_PROFILE set, a run leaves the three profiles behind; a path
// that cannot be written is reported, not fatal.
func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, heap, peak := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "heap.prof"), filepath.Join(dir, "peak.prof")
	t.Setenv("RIG_CPU_PROFILE", cpu)
	t.Setenv("RIG_HEAP_PROFILE", heap)
	t.Setenv("RIG_PEAK_HEAP_PROFILE", peak)
	stop := startProfiles()
	sink := make([][]byte, 0, 100)
	for range 100 {
		sink = append(sink, make([]byte, 1<<16))
	}
	_ = sink
	stop()
	for _, p := range []string{cpu, heap, peak} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("profile %s: %v", p, err)
		}
	}

	t.Setenv("RIG_CPU_PROFILE", filepath.Join(dir, "missing", "cpu.prof"))
	t.Setenv("RIG_HEAP_PROFILE", "")
	t.Setenv("RIG_PEAK_HEAP_PROFILE", filepath.Join(dir, "missing", "peak.prof"))
	startProfiles()() // reports on stderr and carries on
}
