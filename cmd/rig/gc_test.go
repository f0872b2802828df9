package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

func TestMemoryLimitFor(t *testing.T) {
	tests := []struct {
		live uint64
		want int64
	}{
		{0, heapSoftLimit},
		{200 << 20, heapSoftLimit},
		{heapSoftLimit / 2, heapSoftLimit},
		{heapSoftLimit / 3 * 2, heapSoftLimit},
		{600 << 20, 900 << 20},
		{3 << 28, 9 << 27},
		{3 << 30, 9 << 29},
	}
	for _, tt := range tests {
		if got := memoryLimitFor(tt.live); got != tt.want {
			t.Errorf("memoryLimitFor(%d MiB) = %d MiB, want %d MiB", tt.live>>20, got>>20, tt.want>>20)
		}
	}
}

// gcSink keeps the test's allocations from being optimised away.
var gcSink []byte

func TestTuneGCWaitsForTheFloor(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	t.Cleanup(func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
	runtime.GC()
	tuneGC()

	// Well below the floor: no collection at all.
	before := gcCount()
	for range 32 {
		gcSink = make([]byte, 1<<20)
	}
	if n := gcCount() - before; n != 0 {
		t.Fatalf("%d collections while the process held far less than the floor", n)
	}
	// Past the floor: a collection, then rig's policy for every later one.
	for allocated := 0; gcCount() == before; allocated += 1 << 20 {
		if allocated > 2*gcFloor {
			t.Fatalf("no collection after allocating %d MiB", allocated>>20)
		}
		gcSink = make([]byte, 1<<20)
	}
	for range 100 {
		if gcSetting("/gc/gogc:percent") == gcPercent && gcSetting("/gc/gomemlimit:bytes") == heapSoftLimit {
			return
		}
		runtime.GC()
	}
	t.Errorf("after the first collection GOGC = %d and the memory limit %d MiB, want %d and %d MiB",
		gcSetting("/gc/gogc:percent"), gcSetting("/gc/gomemlimit:bytes")>>20, gcPercent, heapSoftLimit>>20)
}

func TestTuneGCLeavesTheUsersSettings(t *testing.T) {
	t.Setenv("GOGC", "150")
	t.Cleanup(func() { debug.SetGCPercent(100) })
	debug.SetGCPercent(150)
	tuneGC()
	if got := gcSetting("/gc/gogc:percent"); got != 150 {
		t.Errorf("GOGC = %d after tuneGC with GOGC=150 set, want 150", got)
	}
}

func gcCount() uint32 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.NumGC
}

func gcSetting(name string) int64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}
