package providertest

import (
	"context"
	"math"
	"sync"
)

// InFlight records how many calls of one kind run at once and the most
// that ever did, and can hold them at a barrier, so that a test can check
// that calls run concurrently without timing anything. The zero value
// records without holding. It is safe for concurrent use.
type InFlight struct {
	mu      sync.Mutex
	total   int
	now     int
	max     int
	hold    int           // barrier size; <= 1 holds nothing
	waiting int           // calls held at the barrier
	gate    chan struct{} // closed to let the waiting calls go
}

// HoldUntil starts the count afresh (Max and Total count from now on) and
// makes every later call wait until n calls are waiting at once, then lets
// those n go on together. A caller that never has n calls in flight at
// once stalls until the calls' contexts end. n <= 1 holds nothing. Call it
// while no call is in flight.
func (f *InFlight) HoldUntil(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hold, f.waiting, f.total, f.max = n, 0, 0, 0
	if f.gate != nil {
		close(f.gate)
	}
	f.gate = make(chan struct{})
}

// Max returns the most calls that were in flight at once.
func (f *InFlight) Max() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.max
}

// Total returns how many calls entered (held ones included).
func (f *InFlight) Total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.total
}

// Enter records that a call starts and holds it at the barrier, if any.
// It returns ctx's error, the call counted as ended, when ctx ends first;
// otherwise the caller calls Leave when the call ends.
func (f *InFlight) Enter(ctx context.Context) error {
	f.mu.Lock()
	f.total++
	f.now++
	f.max = max(f.max, f.now)
	if f.hold <= 1 {
		f.mu.Unlock()
		return nil
	}
	f.waiting++
	if f.waiting == f.hold {
		close(f.gate)
		f.gate, f.waiting = make(chan struct{}), 0
		f.mu.Unlock()
		return nil
	}
	gate := f.gate
	f.mu.Unlock()
	select {
	case <-gate:
		return nil
	case <-ctx.Done():
		f.mu.Lock()
		if f.gate == gate {
			f.waiting--
		}
		f.now--
		f.mu.Unlock()
		return ctx.Err()
	}
}

// Leave records that a call entered with Enter ended.
func (f *InFlight) Leave() {
	f.mu.Lock()
	f.now--
	f.mu.Unlock()
}

// Block holds every later call until release is called (or the call's
// context ends), whatever HoldUntil said; the counts go on. release may be
// called more than once; after it no call is held.
func (f *InFlight) Block() (release func()) {
	f.mu.Lock()
	gate := make(chan struct{})
	if f.gate != nil {
		close(f.gate) // calls held by HoldUntil go on
	}
	f.hold, f.waiting, f.gate = math.MaxInt, 0, gate
	f.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			close(gate)
			if f.gate == gate {
				f.hold, f.waiting, f.gate = 0, 0, nil
			}
		})
	}
}
