package parallel

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// gauge counts the functions in flight and remembers the most at once.
type gauge struct{ now, max atomic.Int32 }

func (g *gauge) enter() {
	n := g.now.Add(1)
	for m := g.max.Load(); n > m && !g.max.CompareAndSwap(m, n); m = g.max.Load() {
	}
}

func (g *gauge) leave() { g.now.Add(-1) }

// waitFor receives from ch or fails the test after a long while: the
// guard of a test that would otherwise hang, not a timed assertion.
func waitFor(t *testing.T, ch <-chan int, what string) int {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("gave up waiting for %s", what)
		return 0
	}
}

func TestPoolRunsEachFunctionOnce(t *testing.T) {
	for _, limit := range []int{0, 1, 3} {
		p := NewPool(limit, nil)
		calls := make([]atomic.Int32, 1000)
		var wg sync.WaitGroup
		for i := range calls {
			wg.Add(1)
			p.Go(nil, func() { defer wg.Done(); calls[i].Add(1) })
		}
		wg.Wait()
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Fatalf("limit %d: function %d ran %d times", limit, i, got)
			}
		}
	}
}

// TestPoolFillsItsLimit holds every function until the limit's worth run at
// once: a pool that ran fewer at once would never get there.
func TestPoolFillsItsLimit(t *testing.T) {
	for _, limit := range []int{1, 4, 10} {
		p := NewPool(limit, nil)
		var g gauge
		var mu sync.Mutex
		waiting := 0
		release := make(chan struct{})
		full := make(chan int, 1)
		var wg sync.WaitGroup
		for range 3 * limit {
			wg.Add(1)
			p.Go(nil, func() {
				defer wg.Done()
				g.enter()
				defer g.leave()
				mu.Lock()
				waiting++
				if waiting == limit {
					full <- waiting
				}
				mu.Unlock()
				<-release
			})
		}
		waitFor(t, full, "the pool to fill")
		close(release)
		wg.Wait()
		if got := g.max.Load(); got != int32(limit) {
			t.Errorf("limit %d: %d ran at once", limit, got)
		}
	}
}

func TestPoolStartsInSubmissionOrder(t *testing.T) {
	p := NewPool(1, nil)
	var order []int
	var wg sync.WaitGroup
	block := make(chan struct{})
	wg.Add(1)
	p.Go(nil, func() { defer wg.Done(); <-block })
	for i := range 20 {
		wg.Add(1)
		p.Go(nil, func() { defer wg.Done(); order = append(order, i) })
	}
	close(block)
	wg.Wait()
	for i, v := range order {
		if v != i {
			t.Fatalf("started in the order %v", order)
		}
	}
}

// TestPoolClassDoesNotBlockOthers: class 0 allows one function at a time;
// while its second function waits, a function of no class submitted after
// it still starts, and the class's functions never overlap.
func TestPoolClassDoesNotBlockOthers(t *testing.T) {
	p := NewPool(4, []int{1})
	var class gauge
	var wg sync.WaitGroup
	firstIn := make(chan int, 1)
	releaseFirst := make(chan struct{})
	for i := range 3 {
		wg.Add(1)
		p.Go([]int{0}, func() {
			defer wg.Done()
			class.enter()
			defer class.leave()
			if i == 0 {
				firstIn <- 0
				<-releaseFirst
			}
		})
	}
	waitFor(t, firstIn, "the first function of the class")
	other := make(chan int, 1)
	wg.Add(1)
	p.Go(nil, func() { defer wg.Done(); other <- 1 })
	// Class 0's other functions are waiting; the unclassed one starts.
	waitFor(t, other, "a function of no class while the class is full")
	close(releaseFirst)
	wg.Wait()
	if got := class.max.Load(); got != 1 {
		t.Errorf("%d functions of a class limited to 1 ran at once", got)
	}
}

// TestPoolClassesAndLimit: two classes of limit 2 under a pool limit of 3
// never exceed either bound.
func TestPoolClassesAndLimit(t *testing.T) {
	p := NewPool(3, []int{2, 2})
	var all gauge
	classes := []gauge{{}, {}}
	var wg sync.WaitGroup
	for i := range 400 {
		c := i % 3 // 2: no class
		wg.Add(1)
		var cls []int
		if c < 2 {
			cls = []int{c}
		}
		p.Go(cls, func() {
			defer wg.Done()
			all.enter()
			if c < 2 {
				classes[c].enter()
				defer classes[c].leave()
			}
			defer all.leave()
			time.Sleep(10 * time.Microsecond)
		})
	}
	wg.Wait()
	if all.max.Load() > 3 || classes[0].max.Load() > 2 || classes[1].max.Load() > 2 {
		t.Errorf("at most %d at once (limit 3), classes %d and %d (limit 2)", all.max.Load(), classes[0].max.Load(), classes[1].max.Load())
	}
}

// TestPoolAddClass: a class whose limit a function changes while it runs
// lets more functions start once that one returns, never more than the
// limit at once.
func TestPoolAddClass(t *testing.T) {
	p := NewPool(0, nil)
	var limit atomic.Int32
	limit.Store(1)
	c := p.AddClass(func() int { return int(limit.Load()) })
	var class gauge
	var wg sync.WaitGroup
	firstIn := make(chan int, 1)
	releaseFirst := make(chan struct{})
	// The others wait until three of them run at once.
	var barrier sync.WaitGroup
	barrier.Add(3)
	for i := range 7 {
		wg.Add(1)
		p.Go([]int{c}, func() {
			defer wg.Done()
			class.enter()
			defer class.leave()
			switch {
			case i == 0:
				firstIn <- 0
				<-releaseFirst
			case i <= 3:
				barrier.Done()
				barrier.Wait()
			}
		})
	}
	waitFor(t, firstIn, "the first function of the class")
	if got := class.now.Load(); got != 1 {
		t.Fatalf("%d functions of a class limited to 1 run", got)
	}
	limit.Store(3)
	close(releaseFirst)
	wg.Wait()
	if got := class.max.Load(); got != 3 {
		t.Errorf("%d functions of the class ran at once, want the new limit, 3", got)
	}
}
