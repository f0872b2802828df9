package dag_test

import (
	"math/rand/v2"
	"testing"

	"github.com/rig-iac/rig/internal/dag"
)

// build returns a graph with the given nodes added in order, then the given
// edges connected in order.
func build(nodes []string, edges [][2]string) *dag.Graph[string] {
	g := dag.New[string]()
	for _, n := range nodes {
		g.Add(n)
	}
	for _, e := range edges {
		g.Connect(e[0], e[1])
	}
	return g
}

// newRand returns a deterministic generator for a test seed.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// randomDAG returns a DAG over the keys 0..n-1, added in a random order.
// Each pair of nodes is joined with probability p, directed along a hidden
// random ranking, so insertion order and topological order differ.
func randomDAG(r *rand.Rand, n int, p float64) *dag.Graph[int] {
	g := dag.New[int]()
	for _, k := range r.Perm(n) {
		g.Add(k)
	}
	rank := r.Perm(n) // rank[i]: the i-th key in the hidden topological order
	type pair struct{ from, to int }
	var pairs []pair
	for i := range n {
		for j := i + 1; j < n; j++ {
			if r.Float64() < p {
				pairs = append(pairs, pair{rank[i], rank[j]})
			}
		}
	}
	r.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	for _, e := range pairs {
		g.Connect(e.from, e.to)
	}
	return g
}

// randomGraph returns a directed graph over 0..n-1 where each ordered pair,
// self-pairs included, is an edge with probability p; it may have cycles.
func randomGraph(r *rand.Rand, n int, p float64) *dag.Graph[int] {
	g := dag.New[int]()
	for _, k := range r.Perm(n) {
		g.Add(k)
	}
	for a := range n {
		for b := range n {
			if r.Float64() < p {
				g.Connect(a, b)
			}
		}
	}
	return g
}

// reachability is the brute-force oracle: reach[a][b] reports a path of one
// or more edges from a to b, for a graph over the keys 0..n-1.
func reachability(g *dag.Graph[int]) [][]bool {
	n := g.Len()
	reach := make([][]bool, n)
	for a := range n {
		reach[a] = make([]bool, n)
		stack := g.Successors(a)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if reach[a][x] {
				continue
			}
			reach[a][x] = true
			stack = append(stack, g.Successors(x)...)
		}
	}
	return reach
}

// checkCycle fails t unless path is a simple cycle of g: each consecutive
// pair and (last, first) are edges, and no node repeats.
func checkCycle[K comparable](t *testing.T, g *dag.Graph[K], path []K) {
	t.Helper()
	if len(path) == 0 {
		t.Errorf("empty cycle")
		return
	}
	seen := make(map[K]bool)
	for i, k := range path {
		if seen[k] {
			t.Errorf("cycle %v repeats %v", path, k)
		}
		seen[k] = true
		next := path[(i+1)%len(path)]
		if !g.HasEdge(k, next) {
			t.Errorf("cycle %v: no edge %v -> %v", path, k, next)
		}
	}
}

// checkTopo fails t unless order holds every node of g once and puts each
// edge's From before its To.
func checkTopo[K comparable](t *testing.T, g *dag.Graph[K], order []K) {
	t.Helper()
	if len(order) != g.Len() {
		t.Fatalf("order has %d nodes, graph %d", len(order), g.Len())
	}
	pos := make(map[K]int, len(order))
	for i, k := range order {
		if _, dup := pos[k]; dup {
			t.Fatalf("order repeats %v", k)
		}
		pos[k] = i
	}
	for _, e := range g.Edges() {
		if pos[e.From] >= pos[e.To] {
			t.Fatalf("edge %v -> %v out of order", e.From, e.To)
		}
	}
}
