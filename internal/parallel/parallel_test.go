package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

func TestForCallsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 100, 10000} {
		calls := make([]atomic.Int32, n)
		For(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Fatalf("n=%d: index %d called %d times, want 1", n, i, got)
			}
		}
	}
}

func TestForRunsConcurrently(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two processors")
	}
	// Every call waits until two calls are in flight at once: with a single
	// worker the first call would wait forever, so a timeout fails the test.
	var inFlight, maxInFlight atomic.Int32
	release := make(chan struct{})
	var once sync.Once
	For(100, func(i int) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			m := maxInFlight.Load()
			if n <= m || maxInFlight.CompareAndSwap(m, n) {
				break
			}
		}
		if n == 2 {
			once.Do(func() { close(release) })
		}
		<-release
	})
	if maxInFlight.Load() < 2 {
		t.Fatalf("at most %d calls ran at once, want 2", maxInFlight.Load())
	}
}
