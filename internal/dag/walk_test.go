package dag_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rig-iac/rig/internal/dag"
)

// results collects a walk's per-node results, checking that All and Get
// agree and that All yields nodes in insertion order.
func results[K comparable](t *testing.T, g *dag.Graph[K], res dag.WalkResult[K]) map[K]dag.NodeResult[K] {
	t.Helper()
	got := make(map[K]dag.NodeResult[K])
	var order []K
	for k, r := range res.All() {
		got[k] = r
		order = append(order, k)
		if r2, ok := res.Get(k); !ok || !cmp.Equal(r, r2, cmpopts.EquateErrors()) {
			t.Errorf("Get(%v) = %v, %v; All yielded %v", k, r2, ok, r)
		}
	}
	if !slices.Equal(order, g.Nodes()) {
		t.Errorf("All yielded %v, want the graph's nodes %v", order, g.Nodes())
	}
	if res.Len() != len(got) {
		t.Errorf("Len = %d, All yielded %d", res.Len(), len(got))
	}
	return got
}

type walkResults = map[string]dag.NodeResult[string]

var errBoom = errors.New("boom")

func TestWalkOutcomes(t *testing.T) {
	tests := []struct {
		name  string
		nodes []string
		edges [][2]string
		fail  []string
		want  walkResults
	}{
		{name: "empty graph", want: walkResults{}},
		{
			name:  "all done",
			edges: [][2]string{{"a", "b"}, {"a", "c"}},
			want:  walkResults{"a": {Outcome: dag.Done}, "b": {Outcome: dag.Done}, "c": {Outcome: dag.Done}},
		},
		{
			name:  "failure skips descendants only",
			nodes: []string{"a", "b", "c", "d", "e"},
			// a → b → c, and d independent, e depends on d and b.
			edges: [][2]string{{"a", "b"}, {"b", "c"}, {"d", "e"}, {"b", "e"}},
			fail:  []string{"a"},
			want: walkResults{
				"a": {Outcome: dag.Failed, Err: errBoom},
				"b": {Outcome: dag.SkippedDependencyFailed, Cause: "a"},
				"c": {Outcome: dag.SkippedDependencyFailed, Cause: "a"},
				"d": {Outcome: dag.Done},
				"e": {Outcome: dag.SkippedDependencyFailed, Cause: "a"},
			},
		},
		{
			name:  "cause is the earliest inserted failed ancestor",
			nodes: []string{"y", "x", "z"},
			edges: [][2]string{{"x", "z"}, {"y", "z"}},
			fail:  []string{"x", "y"},
			want: walkResults{
				"y": {Outcome: dag.Failed, Err: errBoom},
				"x": {Outcome: dag.Failed, Err: errBoom},
				"z": {Outcome: dag.SkippedDependencyFailed, Cause: "y"},
			},
		},
	}
	for _, tt := range tests {
		for _, limit := range []int{0, 1, 3} {
			t.Run(fmt.Sprintf("%s/limit=%d", tt.name, limit), func(t *testing.T) {
				g := build(tt.nodes, tt.edges)
				var calls sync.Map
				res := dag.Walk(t.Context(), g, func(ctx context.Context, k string) error {
					if _, dup := calls.LoadOrStore(k, true); dup {
						t.Errorf("%s called twice", k)
					}
					if slices.Contains(tt.fail, k) {
						return errBoom
					}
					return nil
				}, dag.WalkOptions[string]{Limit: limit})
				got := results(t, g, res)
				if diff := cmp.Diff(tt.want, got, cmpopts.EquateErrors()); diff != "" {
					t.Errorf("results (-want +got):\n%s", diff)
				}
				err := res.Err()
				if (err != nil) != (len(tt.fail) > 0) || (err != nil && !errors.Is(err, errBoom)) {
					t.Errorf("Err = %v", err)
				}
				if n := res.Count(dag.Done) + res.Count(dag.Failed) + res.Count(dag.SkippedDependencyFailed); n != g.Len() {
					t.Errorf("counts add to %d, want %d", n, g.Len())
				}
			})
		}
	}
}

func TestWalkRefusesCycle(t *testing.T) {
	g := build([]string{"a", "b", "c"}, [][2]string{{"a", "b"}, {"b", "c"}, {"c", "b"}})
	res := dag.Walk(t.Context(), g, func(ctx context.Context, k string) error {
		t.Errorf("fn called for %s", k)
		return nil
	}, dag.WalkOptions[string]{})
	var ce *dag.CycleError[string]
	if !errors.As(res.Err(), &ce) {
		t.Fatalf("Err = %v, want *CycleError", res.Err())
	}
	if diff := cmp.Diff([][]string{{"b", "c"}}, ce.Cycles); diff != "" {
		t.Errorf("cycles (-want +got):\n%s", diff)
	}
	if res.Len() != 0 {
		t.Errorf("refused walk has %d results", res.Len())
	}
	if _, ok := res.Get("a"); ok {
		t.Errorf("refused walk has a result for a")
	}
}

func TestWalkLimitOneRunsInTopoOrder(t *testing.T) {
	for seed := range uint64(50) {
		r := newRand(seed)
		g := randomDAG(r, r.IntN(30), 0.2)
		var got []int
		res := dag.Walk(t.Context(), g, func(ctx context.Context, k int) error {
			got = append(got, k) // Limit 1: never concurrent
			return nil
		}, dag.WalkOptions[int]{Limit: 1})
		if res.Err() != nil {
			t.Fatal(res.Err())
		}
		want, _ := g.TopoOrder()
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("seed %d: run order (-want +got):\n%s", seed, diff)
		}
	}
}

func TestWalkAfterRemovals(t *testing.T) {
	g := dag.New[int]()
	for i := range 300 {
		g.Connect(i, i+1)
	}
	for i := 0; i < 300; i += 2 {
		g.Remove(i)
	}
	var ran atomic.Int32
	res := dag.Walk(t.Context(), g, func(ctx context.Context, k int) error {
		if k%2 == 0 && k != 300 {
			t.Errorf("removed node %d ran", k)
		}
		ran.Add(1)
		return nil
	}, dag.WalkOptions[int]{Limit: 4})
	if res.Err() != nil || int(ran.Load()) != g.Len() || res.Count(dag.Done) != g.Len() {
		t.Errorf("Err %v, ran %d, done %d; want %d done", res.Err(), ran.Load(), res.Count(dag.Done), g.Len())
	}
	if _, ok := res.Get(0); ok {
		t.Errorf("result for removed node 0")
	}
	results(t, g, res)
	g.Remove(1) // the result does not share memory with the graph
	if r, ok := res.Get(1); !ok || r.Outcome != dag.Done {
		t.Errorf("result for 1 changed with the graph: %v, %v", r, ok)
	}
}

func TestWalkContextCancelledBeforeStart(t *testing.T) {
	g := build([]string{"a", "b"}, [][2]string{{"a", "b"}})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res := dag.Walk(ctx, g, func(ctx context.Context, k string) error {
		t.Errorf("fn called for %s", k)
		return nil
	}, dag.WalkOptions[string]{Limit: 2})
	want := walkResults{"a": {Outcome: dag.NotRunCancelled}, "b": {Outcome: dag.NotRunCancelled}}
	if diff := cmp.Diff(want, results(t, g, res), cmpopts.EquateErrors()); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if !errors.Is(res.Err(), context.Canceled) {
		t.Errorf("Err = %v, want context.Canceled", res.Err())
	}
}

// TestWalkCancelMidWalk cancels while one node runs: that node is waited
// for, nothing new starts, and the others are reported by why they did not
// run.
func TestWalkCancelMidWalk(t *testing.T) {
	for _, limit := range []int{0, 2, 5} {
		t.Run(fmt.Sprintf("limit=%d", limit), func(t *testing.T) {
			g := build(
				[]string{"slow", "trigger", "afterSlow", "afterTrigger", "afterBoth"},
				[][2]string{{"slow", "afterSlow"}, {"trigger", "afterTrigger"}, {"slow", "afterBoth"}, {"trigger", "afterBoth"}},
			)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			slowStarted := make(chan struct{})
			var slowReturned, cancelled atomic.Bool
			res := dag.Walk(ctx, g, func(ctx context.Context, k string) error {
				switch k {
				case "slow":
					close(slowStarted)
					<-ctx.Done()
					slowReturned.Store(true)
					return ctx.Err()
				case "trigger":
					<-slowStarted
					cancel()
					cancelled.Store(true)
					return nil
				default:
					if cancelled.Load() {
						t.Errorf("%s started after cancellation", k)
					}
					return nil
				}
			}, dag.WalkOptions[string]{Limit: limit})
			if !slowReturned.Load() {
				t.Errorf("Walk returned before the running node finished")
			}
			want := walkResults{
				"slow":         {Outcome: dag.Failed, Err: context.Canceled},
				"trigger":      {Outcome: dag.Done},
				"afterSlow":    {Outcome: dag.SkippedDependencyFailed, Cause: "slow"},
				"afterTrigger": {Outcome: dag.NotRunCancelled},
				"afterBoth":    {Outcome: dag.SkippedDependencyFailed, Cause: "slow"},
			}
			if diff := cmp.Diff(want, results(t, g, res), cmpopts.EquateErrors()); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			if !errors.Is(res.Err(), context.Canceled) {
				t.Errorf("Err = %v, want context.Canceled", res.Err())
			}
		})
	}
}

// walkCase is one randomized walk: a DAG over 0..n-1, the nodes whose fn
// fails, and the number of the start at which fn cancels the context (0:
// never).
type walkCase struct {
	g        *dag.Graph[int]
	limit    int
	fail     []bool
	cancelAt int
}

func randomWalkCase(seed uint64, maxN int) walkCase {
	r := newRand(seed)
	n := r.IntN(maxN + 1)
	c := walkCase{
		g:     randomDAG(r, n, r.Float64()*0.3),
		limit: r.IntN(6) - 1,
		fail:  make([]bool, n),
	}
	if r.IntN(2) == 0 {
		for k := range n {
			c.fail[k] = r.IntN(8) == 0
		}
	}
	if n > 0 && r.IntN(3) == 0 {
		c.cancelAt = 1 + r.IntN(n)
	}
	return c
}

// checkWalk runs c and checks the walk against its specification:
//   - fn runs at most once per node, and only after every predecessor's fn
//     returned nil;
//   - no more than Limit calls of fn run at once;
//   - without cancellation, every node that depends on no failing node runs;
//   - each node's outcome and cause follow from which nodes ran and failed;
//   - with Limit 1, nothing starts after the cancelling fn calls cancel, and
//     with Limit L, at most L-1 calls start after it (those already handed
//     out);
//   - every fn has returned when Walk returns.
func checkWalk(t *testing.T, c walkCase) {
	t.Helper()
	n := c.g.Len()
	var (
		seq, starts, active, maxActive atomic.Int64
		cancelSeq                      atomic.Int64 // seq just after cancel; 0: not yet
		walkReturned                   atomic.Bool
		start                          = make([]atomic.Int64, n)
		end                            = make([]atomic.Int64, n)
		calls                          = make([]atomic.Int32, n)
		mu                             sync.Mutex
		violations                     []string
	)
	violate := func(format string, args ...any) {
		mu.Lock()
		violations = append(violations, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	res := dag.Walk(ctx, c.g, func(ctx context.Context, k int) error {
		if walkReturned.Load() {
			violate("%d started after Walk returned", k)
		}
		calls[k].Add(1)
		start[k].Store(seq.Add(1))
		for _, p := range c.g.Predecessors(k) {
			if end[p].Load() == 0 || c.fail[p] {
				violate("%d started before predecessor %d finished successfully", k, p)
			}
		}
		a := active.Add(1)
		for m := maxActive.Load(); a > m && !maxActive.CompareAndSwap(m, a); m = maxActive.Load() {
		}
		if int(starts.Add(1)) == c.cancelAt {
			cancel()
			cancelSeq.Store(seq.Add(1))
		}
		runtime.Gosched()
		active.Add(-1)
		end[k].Store(seq.Add(1))
		if c.fail[k] {
			return fmt.Errorf("node %d: %w", k, errBoom)
		}
		return nil
	}, dag.WalkOptions[int]{Limit: c.limit})
	walkReturned.Store(true)
	for _, v := range violations {
		t.Error(v)
	}
	if active.Load() != 0 {
		t.Errorf("%d calls still running after Walk returned", active.Load())
	}
	if c.limit > 0 && maxActive.Load() > int64(c.limit) {
		t.Errorf("%d calls ran at once, limit %d", maxActive.Load(), c.limit)
	}
	if cs := cancelSeq.Load(); cs != 0 && c.limit > 0 {
		late := 0
		for k := range n {
			if s := start[k].Load(); s > cs {
				late++
			}
		}
		if late > c.limit-1 {
			t.Errorf("%d calls started after cancel, limit %d allows %d", late, c.limit, c.limit-1)
		}
	}

	got := results(t, c.g, res)
	insertion := make(map[int]int, n)
	for i, k := range c.g.Nodes() {
		insertion[k] = i
	}
	reach := reachability(c.g)
	ran := func(k int) bool { return calls[k].Load() > 0 }
	anyCancelled := false
	for k := range n {
		if calls[k].Load() > 1 {
			t.Errorf("%d ran %d times", k, calls[k].Load())
		}
		var want dag.NodeResult[int]
		switch {
		case ran(k) && c.fail[k]:
			want = dag.NodeResult[int]{Outcome: dag.Failed, Err: errBoom}
		case ran(k):
			want = dag.NodeResult[int]{Outcome: dag.Done}
		default:
			cause := -1
			for a := range n {
				if reach[a][k] && ran(a) && c.fail[a] && (cause < 0 || insertion[a] < insertion[cause]) {
					cause = a
				}
			}
			if cause >= 0 {
				want = dag.NodeResult[int]{Outcome: dag.SkippedDependencyFailed, Cause: cause}
			} else {
				want = dag.NodeResult[int]{Outcome: dag.NotRunCancelled}
				anyCancelled = true
			}
		}
		if diff := cmp.Diff(want, got[k], cmpopts.EquateErrors()); diff != "" {
			t.Errorf("node %d (-want +got):\n%s", k, diff)
		}
	}
	if anyCancelled && cancelSeq.Load() == 0 {
		t.Errorf("nodes not run although nothing cancelled")
	}
	err := res.Err()
	for k := range n {
		if ran(k) && c.fail[k] && !errors.Is(err, errBoom) {
			t.Errorf("Err = %v lacks the failure of %d", err, k)
		}
	}
	if errors.Is(err, context.Canceled) != anyCancelled {
		t.Errorf("Err = %v; any cancelled: %v", err, anyCancelled)
	}
	if err != nil && res.Count(dag.Done) == n {
		t.Errorf("Err = %v although every node is done", err)
	}
}

func TestWalkRandom(t *testing.T) {
	for seed := range uint64(400) {
		c := randomWalkCase(seed, 40)
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			checkWalk(t, c)
		})
	}
}

func FuzzWalk(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(seed, uint8(20), uint8(60), int8(2), uint64(0), uint8(0))
	}
	f.Add(uint64(9), uint8(40), uint8(30), int8(1), uint64(0x8421), uint8(5))
	f.Add(uint64(10), uint8(64), uint8(10), int8(0), uint64(1<<7|1<<30), uint8(0))
	f.Fuzz(func(t *testing.T, seed uint64, n, density uint8, limit int8, failMask uint64, cancelAt uint8) {
		r := newRand(seed)
		c := walkCase{
			g:     randomDAG(r, int(n%65), float64(density)/512),
			limit: int(limit % 9),
		}
		c.fail = make([]bool, c.g.Len())
		for k := range c.fail {
			c.fail[k] = failMask&(1<<(k%64)) != 0
		}
		if int(cancelAt) <= c.g.Len() {
			c.cancelAt = int(cancelAt)
		}
		checkWalk(t, c)
	})
}
