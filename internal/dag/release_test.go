package dag_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/dag"
)

// A node that releases its share of the limit lets another start, which
// could not otherwise run before it returns; its successors still wait
// for it to return.
func TestReleaseLetsAnotherNodeStart(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts dag.WalkOptions[string]
	}{
		{"limit", dag.WalkOptions[string]{Limit: 1}},
		{"class limit", dag.WalkOptions[string]{Classes: func(string) []int { return []int{0} }, ClassLimits: []int{1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// a → c; b is independent. a waits, after releasing, for b to run.
			g := build([]string{"a", "b", "c"}, [][2]string{{"a", "c"}})
			bRan := make(chan struct{})
			var mu sync.Mutex
			var events []string
			log := func(e string) { mu.Lock(); events = append(events, e); mu.Unlock() }
			res := dag.Walk(context.Background(), g, func(ctx context.Context, k string) error {
				switch k {
				case "a":
					dag.Release(ctx)
					dag.Release(ctx) // a second call does nothing
					select {
					case <-bRan:
					case <-time.After(10 * time.Second):
						t.Error("b did not start while a waited after releasing")
					}
					log("a returns")
				case "b":
					log("b")
					close(bRan)
				case "c":
					log("c")
				}
				return nil
			}, tc.opts)
			if err := res.Err(); err != nil {
				t.Fatal(err)
			}
			want := []string{"b", "a returns", "c"}
			if len(events) != 3 || events[0] != want[0] || events[1] != want[1] || events[2] != want[2] {
				t.Fatalf("events = %v, want %v", events, want)
			}
		})
	}
}

// However nodes release, no more than Limit of them work at once (between
// starting and releasing or returning), and every node runs after all of
// its predecessors returned.
func TestReleaseKeepsLimitAndOrder(t *testing.T) {
	r := newRand(7)
	g := randomDAG(r, 300, 0.02)
	const limit = 4
	var working, maxWorking atomic.Int32
	var mu sync.Mutex
	returned := map[int]bool{}
	res := dag.Walk(context.Background(), g, func(ctx context.Context, k int) error {
		n := working.Add(1)
		for m := maxWorking.Load(); n > m && !maxWorking.CompareAndSwap(m, n); m = maxWorking.Load() {
		}
		mu.Lock()
		for _, p := range g.Predecessors(k) {
			if !returned[p] {
				t.Errorf("%d started before its predecessor %d returned", k, p)
			}
		}
		mu.Unlock()
		time.Sleep(50 * time.Microsecond)
		working.Add(-1)
		if k%2 == 0 {
			dag.Release(ctx)
			time.Sleep(200 * time.Microsecond) // waiting, not working
		}
		mu.Lock()
		returned[k] = true
		mu.Unlock()
		return nil
	}, dag.WalkOptions[int]{Limit: limit})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	if n := res.Count(dag.Done); n != 300 {
		t.Fatalf("%d nodes done, want 300", n)
	}
	if m := maxWorking.Load(); m > limit {
		t.Fatalf("%d nodes worked at once, limit %d", m, limit)
	}
}

// With ReleasedLimit, once that many released nodes are unfinished nothing
// else starts (only the calls already started may still release), and the
// walk still finishes once they return.
func TestReleasedLimit(t *testing.T) {
	for _, tc := range []struct {
		name          string
		releasedLimit int
		// wantMax released calls wait together before any goes on; at
		// most atMost ever do: a call already started when the cap is
		// reached may still release (ReleasedLimit + Limit - 1).
		wantMax, atMost int32
	}{
		{"capped", 3, 3, 4},
		{"uncapped", 0, 40, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var nodes []string
			for i := range 40 {
				nodes = append(nodes, string(rune('A'+i)))
			}
			g := build(nodes, nil)
			var waiting, maxWaiting atomic.Int32
			done := make(chan struct{})
			var once sync.Once
			res := dag.Walk(context.Background(), g, func(ctx context.Context, k string) error {
				dag.Release(ctx)
				n := waiting.Add(1)
				for m := maxWaiting.Load(); n > m && !maxWaiting.CompareAndSwap(m, n); m = maxWaiting.Load() {
				}
				// The waiting nodes go on once as many as may wait do; the
				// ten seconds only keep a walk that never lets that many
				// start from hanging (the count below then fails).
				if n >= tc.wantMax {
					once.Do(func() { close(done) })
				}
				select {
				case <-done:
				case <-time.After(10 * time.Second):
				}
				waiting.Add(-1)
				return nil
			}, dag.WalkOptions[string]{Limit: 2, ReleasedLimit: tc.releasedLimit})
			if err := res.Err(); err != nil {
				t.Fatal(err)
			}
			if n := res.Count(dag.Done); n != 40 {
				t.Fatalf("%d nodes done, want 40", n)
			}
			if m := maxWaiting.Load(); m < tc.wantMax || m > tc.atMost {
				t.Fatalf("at most %d released nodes waited at once, want %d to %d", m, tc.wantMax, tc.atMost)
			}
		})
	}
}

// Release outside a Walk does nothing.
func TestReleaseOutsideWalk(t *testing.T) {
	dag.Release(context.Background())
}
