package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// rig is a short-lived process whose heap is mostly live configuration,
// state and plan. Below gcFloor of memory the collector does not run at
// all: a plan or apply of up to about a thousand objects ends before it
// would have anything to give back, and the cycles and write barriers it
// costs would only slow the run down. From the first collection on,
// collecting garbage rarely (GOGC=400) keeps it fast while the heap is
// small; on a large graph the same setting would let garbage grow to four
// times the live heap, so a soft memory limit takes over: collections keep
// the process near heapSoftLimit (an apply, a no-op plan or a destroy of
// 100,000 objects has a live heap of at most about 600 MB, so the limit
// holds it within 1 GiB), and once the live heap itself approaches that
// limit, near one and a half times the live heap (as GOGC=50 would), which
// never lets the collector run back to back.
const (
	gcFloor       = 256 << 20
	gcPercent     = 400
	heapSoftLimit = 896 << 20
)

// tuneGC applies rig's garbage collection policy, unless the user set GOGC
// or GOMEMLIMIT, which then apply as they are.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	// No collection until the process holds gcFloor: the memory limit
	// alone starts the first one, and watchLiveHeap then sets the policy
	// of every later one.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcFloor)
	watchLiveHeap()
}

// memoryLimitFor is the soft memory limit for a live heap of live bytes.
func memoryLimitFor(live uint64) int64 {
	return max(heapSoftLimit, int64(live)+int64(live)/2)
}

// watchLiveHeap sets GOGC=400 after the first collection and moves the
// memory limit after every one: a finalizer on an unreachable sentinel
// runs once per cycle and re-arms itself.
func watchLiveHeap() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	first := true
	var rearm func(*gcSentinel)
	rearm = func(*gcSentinel) {
		if first {
			debug.SetGCPercent(gcPercent)
			first = false
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetMemoryLimit(memoryLimitFor(sample[0].Value.Uint64()))
		}
		runtime.SetFinalizer(&gcSentinel{}, rearm)
	}
	runtime.SetFinalizer(&gcSentinel{}, rearm)
}

// gcSentinel is an object allocated only to be collected.
type gcSentinel struct{ _ [16]byte }
