// Package parallel runs independent pieces of work at once: CPU-bound work
// on every core (For), work that waits on something outside the process
// within a limit and concurrency classes (Pool), and values that concurrent
// callers share, each computed once (Memo).
//
// It imports no rig package.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(i) for every i in [0, n), from up to GOMAXPROCS goroutines at
// once, and returns when all calls have returned. Calls for different i may
// run in any order and at the same time; fn must only write what belongs to
// its own i. With one processor, or n < 2, it runs on the calling goroutine.
func For(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}
