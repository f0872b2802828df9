package dag_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rig-iac/rig/internal/dag"
)

// TestClassLimitsNeverIdleASlot: with class A limited to one at a time, a
// ready node of class B takes every free slot while A's nodes wait.
func TestClassLimitsNeverIdleASlot(t *testing.T) {
	g := dag.New[string]()
	for i := range 4 {
		g.Add(fmt.Sprintf("a%d", i))
	}
	for i := range 4 {
		g.Add(fmt.Sprintf("b%d", i))
	}
	started := make(chan string, 8)
	release := map[string]chan struct{}{}
	for _, k := range g.Nodes() {
		release[k] = make(chan struct{})
	}
	done := make(chan dag.WalkResult[string])
	go func() {
		done <- dag.Walk(context.Background(), g, func(_ context.Context, k string) error {
			started <- k
			<-release[k]
			return nil
		}, dag.WalkOptions[string]{
			Limit:       3,
			Classes:     func(k string) []int { return map[bool][]int{true: {0}, false: nil}[strings.HasPrefix(k, "a")] },
			ClassLimits: []int{1},
		})
	}()
	first := []string{<-started, <-started, <-started}
	slices.Sort(first)
	if got := strings.Join(first, ","); got != "a0,b0,b1" {
		t.Fatalf("first three started: %s, want a0,b0,b1 (one a, the free slots to b)", got)
	}
	close(release["b0"])
	if next := <-started; next != "b2" {
		t.Fatalf("after b0 finished, %s started; want b2 (a is full)", next)
	}
	close(release["a0"])
	if next := <-started; next != "a1" {
		t.Fatalf("after a0 finished, %s started; want a1", next)
	}
	for _, k := range []string{"b1", "b2", "a1"} {
		close(release[k])
	}
	for range 3 {
		k := <-started
		close(release[k])
	}
	if res := <-done; res.Err() != nil || res.Count(dag.Done) != 8 {
		t.Fatalf("walk: %v, %d done", res.Err(), res.Count(dag.Done))
	}
}

// TestClassLimitsRandom: on random DAGs with random classes and limits,
// no class and not the whole walk ever runs more than its limit, every node
// runs after its predecessors, and every node runs.
func TestClassLimitsRandom(t *testing.T) {
	for seed := range 200 {
		r := rand.New(rand.NewPCG(uint64(seed), 3))
		n := 5 + r.IntN(60)
		g := dag.New[int]()
		for i := range n {
			g.Add(i)
			for j := range i {
				if r.IntN(10) == 0 {
					g.Connect(j, i)
				}
			}
		}
		nClasses := 1 + r.IntN(3)
		limits := make([]int, nClasses)
		for c := range limits {
			limits[c] = r.IntN(3) // 0 means unlimited
		}
		classes := make([][]int, n)
		for i := range classes {
			for c := range nClasses {
				if r.IntN(2) == 0 {
					classes[i] = append(classes[i], c)
				}
			}
		}
		limit := r.IntN(5)
		var mu sync.Mutex
		running, total := make([]int, nClasses), 0
		finished := make([]bool, n)
		res := dag.Walk(context.Background(), g, func(_ context.Context, k int) error {
			mu.Lock()
			for _, p := range g.Predecessors(k) {
				if !finished[p] {
					t.Errorf("seed %d: %d started before predecessor %d finished", seed, k, p)
				}
			}
			total++
			if limit > 0 && total > limit {
				t.Errorf("seed %d: %d running, limit %d", seed, total, limit)
			}
			for _, c := range classes[k] {
				running[c]++
				if limits[c] > 0 && running[c] > limits[c] {
					t.Errorf("seed %d: class %d runs %d, limit %d", seed, c, running[c], limits[c])
				}
			}
			mu.Unlock()
			mu.Lock()
			total--
			for _, c := range classes[k] {
				running[c]--
			}
			finished[k] = true
			mu.Unlock()
			return nil
		}, dag.WalkOptions[int]{Limit: limit, Classes: func(k int) []int { return classes[k] }, ClassLimits: limits})
		if res.Count(dag.Done) != n {
			t.Fatalf("seed %d: %d of %d nodes ran", seed, res.Count(dag.Done), n)
		}
	}
}

// TestClassLimitChanges: a class limit given by ClassLimit that grows while
// a node runs lets more nodes start as soon as that node finishes, never
// more than ClassLimits allows; one that shrinks holds nodes back.
func TestClassLimitChanges(t *testing.T) {
	g := dag.New[string]()
	for i := range 8 {
		g.Add(fmt.Sprintf("a%d", i))
	}
	var mu sync.Mutex
	limit := 1
	started := make(chan string, 8)
	release := map[string]chan struct{}{}
	for _, k := range g.Nodes() {
		release[k] = make(chan struct{})
	}
	done := make(chan dag.WalkResult[string])
	go func() {
		done <- dag.Walk(context.Background(), g, func(_ context.Context, k string) error {
			started <- k
			<-release[k]
			return nil
		}, dag.WalkOptions[string]{
			Limit:       10,
			Classes:     func(string) []int { return []int{0} },
			ClassLimits: []int{4},
			ClassLimit: func(int) int {
				mu.Lock()
				defer mu.Unlock()
				return limit
			},
		})
	}()
	if k := <-started; k != "a0" {
		t.Fatalf("first started %s, want a0 alone", k)
	}
	mu.Lock()
	limit = 100 // capped by ClassLimits: 4
	mu.Unlock()
	close(release["a0"])
	next := []string{<-started, <-started, <-started, <-started}
	slices.Sort(next)
	if got := strings.Join(next, ","); got != "a1,a2,a3,a4" {
		t.Fatalf("after the limit grew, started %s; want a1…a4", got)
	}
	select {
	case k := <-started:
		t.Fatalf("%s started beyond ClassLimits' 4", k)
	default:
	}
	mu.Lock()
	limit = 2
	mu.Unlock()
	close(release["a1"])
	close(release["a2"])
	close(release["a3"])
	if k := <-started; k != "a5" {
		t.Fatalf("after three finished under a limit of 2, %s started; want a5", k)
	}
	select {
	case k := <-started:
		t.Fatalf("%s started beyond the limit of 2", k)
	default:
	}
	for _, k := range []string{"a4", "a5"} {
		close(release[k])
	}
	for range 2 {
		close(release[<-started])
	}
	if res := <-done; res.Err() != nil || res.Count(dag.Done) != 8 {
		t.Fatalf("walk: %v, %d done", res.Err(), res.Count(dag.Done))
	}
}
