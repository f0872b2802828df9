package dag

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkInvariants fails t unless g's internal tables agree with each other.
func checkInvariants[K comparable](t *testing.T, g *Graph[K]) {
	t.Helper()
	if len(g.keys) != len(g.live) || len(g.keys) != len(g.out) || len(g.keys) != len(g.in) {
		t.Fatalf("table lengths differ: keys %d live %d out %d in %d", len(g.keys), len(g.live), len(g.out), len(g.in))
	}
	live, edges := 0, 0
	for id, alive := range g.live {
		if !alive {
			if len(g.out[id]) > 0 || len(g.in[id]) > 0 {
				t.Fatalf("hole %d has edges", id)
			}
			continue
		}
		live++
		if got, ok := g.index[g.keys[id]]; !ok || got != int32(id) {
			t.Fatalf("index[%v] = %d, %v; want %d", g.keys[id], got, ok, id)
		}
		edges += len(g.out[id])
		for _, s := range g.out[id] {
			if !g.live[s] {
				t.Fatalf("edge %d -> hole %d", id, s)
			}
			if n := count(g.in[s], int32(id)); n != 1 {
				t.Fatalf("edge %d -> %d appears %d times in in[%d]", id, s, n, s)
			}
			if n := count(g.out[id], s); n != 1 {
				t.Fatalf("edge %d -> %d appears %d times in out[%d]", id, s, n, id)
			}
		}
		for _, p := range g.in[id] {
			if !slices.Contains(g.out[p], int32(id)) {
				t.Fatalf("in[%d] has %d without the edge", id, p)
			}
		}
	}
	if live != len(g.index) {
		t.Fatalf("%d live ids, %d index entries", live, len(g.index))
	}
	if edges != g.edges {
		t.Fatalf("counted %d edges, recorded %d", edges, g.edges)
	}
}

func count(s []int32, x int32) int {
	n := 0
	for _, v := range s {
		if v == x {
			n++
		}
	}
	return n
}

func TestRandomEditsKeepInvariants(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 1))
		g := New[int]()
		for step := range 3000 {
			a, b := r.IntN(150), r.IntN(150)
			switch op := r.IntN(10); {
			case op < 5:
				g.Connect(a, b)
			case op < 7:
				g.RemoveEdge(a, b)
			case op < 9:
				g.Remove(a)
			default:
				g.Add(a)
			}
			if step%100 == 0 {
				checkInvariants(t, g)
			}
		}
		checkInvariants(t, g)
		checkInvariants(t, g.Copy())
		checkInvariants(t, g.Reverse())
		if g.Len() > 0 {
			if _, err := g.TopoOrder(); err == nil {
				if err := g.TransitiveReduction(); err != nil {
					t.Fatal(err)
				}
				checkInvariants(t, g)
			}
		}
	}
}

// TestReductionMethodsAgree checks that the bitset method, normally used
// only when the windowed search runs over budget, marks exactly the edges
// the windowed search marks.
func TestReductionMethodsAgree(t *testing.T) {
	multiPass := 0
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 2))
		n := 1 + r.IntN(1000) // often past 256 targets, so that several passes run
		p := r.Float64() * 10 / float64(n)
		g := New[int]()
		for _, k := range r.Perm(n) {
			g.Add(k)
		}
		rank := r.Perm(n)
		for i := range n {
			for j := i + 1; j < n; j++ {
				if r.Float64() < p {
					g.Connect(rank[i], rank[j])
				}
			}
		}
		order, ok := g.topoIDs()
		if !ok {
			t.Fatal("random DAG has a cycle")
		}
		windowed := newReducer(g, order)
		windowed.byWindowedSearch(math.MaxInt)
		bitsets := newReducer(g, order)
		bitsets.byBitsets()
		if !slices.Equal(windowed.redundant, bitsets.redundant) {
			t.Fatalf("seed %d: methods disagree:\nwindowed %v\nbitsets  %v", seed, windowed.redundant, bitsets.redundant)
		}
		targets := 0
		for _, preds := range g.in {
			if len(preds) >= 2 {
				targets++
			}
		}
		if targets > 64*bitsetWords {
			multiPass++
		}
	}
	if multiPass < 10 {
		t.Errorf("only %d graphs needed several bitset passes; the test lost its coverage", multiPass)
	}
}

// TestReductionFallsBackToBitsets builds a graph on which the windowed
// search runs over budget: a chain 0 → 1 → … with a long edge from every
// node, so each node's search walks half the chain.
func TestReductionFallsBackToBitsets(t *testing.T) {
	const n = 4000
	g := New[int]()
	for i := range n - 1 {
		g.Connect(i, i+1)
		if i+n/2 < n {
			g.Connect(i, i+n/2)
		}
	}
	order, _ := g.topoIDs()
	r := newReducer(g, order)
	if r.byWindowedSearch(r.bitsetCost()) {
		t.Fatalf("windowed search stayed within budget; the test no longer covers the fallback")
	}
	if err := g.TransitiveReduction(); err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, g)
	if g.EdgeCount() != n-1 {
		t.Errorf("EdgeCount = %d, want %d (only the chain)", g.EdgeCount(), n-1)
	}
	for i := range n - 1 {
		if !g.HasEdge(i, i+1) {
			t.Fatalf("chain edge %d -> %d removed", i, i+1)
		}
	}
}

func TestIDHeap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	var h idHeap
	var want []int32
	for range 1000 {
		if len(h) > 0 && r.IntN(3) == 0 {
			got := h.pop()
			if got != want[0] {
				t.Fatalf("pop = %d, want %d", got, want[0])
			}
			want = want[1:]
			continue
		}
		x := int32(r.IntN(500))
		h.push(x)
		want = append(want, x)
		slices.Sort(want)
	}
}
