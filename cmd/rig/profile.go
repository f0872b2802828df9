package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
)

// startProfiles starts what the RIG_CPU_PROFILE, RIG_HEAP_PROFILE and
// RIG_PEAK_HEAP_PROFILE environment variables ask for: a CPU profile of the
// whole run, a heap profile written at the end (its allocation samples
// cover the whole run), and a heap profile of the live heap at its largest
// (rewritten after each collection that finds the live heap a tenth larger
// than the last one written), to the files they name. The returned function
// finishes them.
func startProfiles() (stop func()) {
	var stops []func()
	if path := os.Getenv("RIG_PEAK_HEAP_PROFILE"); path != "" {
		stops = append(stops, watchPeakHeap(path))
	}
	if path := os.Getenv("RIG_CPU_PROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "rig: RIG_CPU_PROFILE: %v\n", err)
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if path := os.Getenv("RIG_HEAP_PROFILE"); path != "" {
		stops = append(stops, func() {
			// The profile stands as of the last collection: one now makes
			// it cover the whole run.
			runtime.GC()
			if err := writeHeapProfile(path, "allocs"); err != nil {
				fmt.Fprintf(os.Stderr, "rig: RIG_HEAP_PROFILE: %v\n", err)
			}
		})
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}

// watchPeakHeap writes a heap profile to path whenever a collection finds
// the live heap a tenth larger than when it last wrote one: a finalizer on
// an unreachable sentinel runs once per cycle and re-arms itself. A heap
// profile shows the heap as of two cycles before, so the profile of a peak
// is written two cycles after it. The returned function stops it and
// reports a failure to write.
func watchPeakHeap(path string) (stop func()) {
	var mu sync.Mutex
	var peak uint64
	var werr error
	stopped := false
	pending := 0 // cycles until the profile of the last peak is written
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var rearm func(*gcSentinel)
	rearm = func(*gcSentinel) {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		metrics.Read(sample)
		if live := sample[0].Value.Uint64(); sample[0].Value.Kind() == metrics.KindUint64 && live > peak+peak/10 {
			peak, pending = live, 2
		} else if pending > 0 {
			if pending--; pending == 0 {
				werr = writeHeapProfile(path, "heap")
			}
		}
		runtime.SetFinalizer(&gcSentinel{}, rearm)
	}
	runtime.SetFinalizer(&gcSentinel{}, rearm)
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		if werr == nil && pending > 0 || peak == 0 {
			// The last peak was not written yet: the heap as it is now.
			runtime.GC()
			werr = writeHeapProfile(path, "heap")
		}
		if werr != nil {
			fmt.Fprintf(os.Stderr, "rig: RIG_PEAK_HEAP_PROFILE: %v\n", werr)
		}
	}
}

// writeHeapProfile writes the named profile ("heap" or "allocs") to path.
func writeHeapProfile(path, name string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = pprof.Lookup(name).WriteTo(f, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
