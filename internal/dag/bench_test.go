package dag_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/rig-iac/rig/internal/dag"
)

// layeredDAG returns a DAG of n nodes in layers of width nodes; every node
// outside the last layers has 3 edges into the next three layers, so some
// edges are implied by others.
func layeredDAG(n, width int) *dag.Graph[int] {
	r := newRand(uint64(n))
	g := dag.New[int]()
	for k := range n {
		g.Add(k)
	}
	for k := range n {
		layer := k / width
		for range 3 {
			target := (layer+1+r.IntN(3))*width + r.IntN(width)
			if target < n {
				g.Connect(k, target)
			}
		}
	}
	return g
}

var benchSizes = []int{10_000, 100_000}

func BenchmarkWalk(b *testing.B) {
	for _, n := range benchSizes {
		g := layeredDAG(n, 100)
		for _, limit := range []int{10, 0} {
			b.Run(fmt.Sprintf("N=%d/limit=%d", n, limit), func(b *testing.B) {
				fn := func(context.Context, int) error { return nil }
				for b.Loop() {
					if err := dag.Walk(context.Background(), g, fn, dag.WalkOptions[int]{Limit: limit}).Err(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkTransitiveReduction(b *testing.B) {
	for _, n := range benchSizes {
		g := layeredDAG(n, 100)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := g.Reduced(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The worst case for the windowed search, where the bitset method
	// takes over: a chain with an edge from every node half-way down.
	for _, n := range benchSizes {
		g := dag.New[int]()
		for i := range n - 1 {
			g.Connect(i, i+1)
			if i+n/2 < n {
				g.Connect(i, i+n/2)
			}
		}
		b.Run(fmt.Sprintf("chain-with-long-edges/N=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := g.Reduced(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCycles(b *testing.B) {
	for _, n := range benchSizes {
		g := layeredDAG(n, 100)
		for k := 0; k+1000 < n; k += 1000 {
			g.Connect(k+999, k) // a cycle back up through ten layers
		}
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				if len(g.Cycles()) == 0 {
					b.Fatal("no cycles")
				}
			}
		})
	}
	g := dag.New[int]()
	const ring = 1_000_000
	for i := range ring {
		g.Connect(i, (i+1)%ring)
	}
	b.Run("ring/N=1000000", func(b *testing.B) {
		for b.Loop() {
			if len(g.Cycles()) != 1 {
				b.Fatal("want one cycle")
			}
		}
	})
}

func BenchmarkTopoOrder(b *testing.B) {
	for _, n := range benchSizes {
		g := layeredDAG(n, 100)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := g.TopoOrder(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
