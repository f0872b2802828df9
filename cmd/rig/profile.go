package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles starts what the RIG_CPU_PROFILE and RIG_HEAP_PROFILE
// environment variables ask for: a CPU profile of the whole run, and a heap
// profile written at the end (its allocation samples cover the whole run),
// to the files they name. The returned function finishes them.
func startProfiles() (stop func()) {
	var stops []func()
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
			f, err := os.Create(path)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
			if err != nil {
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
