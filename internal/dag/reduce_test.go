package dag_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rig-iac/rig/internal/dag"
)

func TestTransitiveReduction(t *testing.T) {
	tests := []struct {
		name  string
		nodes []string
		edges [][2]string
		want  []e
	}{
		{name: "empty"},
		{
			name:  "triangle loses its shortcut",
			edges: [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}},
			want:  []e{{"a", "b"}, {"b", "c"}},
		},
		{
			name:  "diamond is already reduced",
			edges: [][2]string{{"a", "b"}, {"a", "c"}, {"b", "d"}, {"c", "d"}},
			want:  []e{{"a", "b"}, {"a", "c"}, {"b", "d"}, {"c", "d"}},
		},
		{
			name: "long shortcut over a chain, edge order kept",
			edges: [][2]string{
				{"a", "x"}, {"a", "d"}, {"a", "b"}, {"b", "c"}, {"c", "d"}, {"a", "c"},
			},
			want: []e{{"a", "x"}, {"a", "b"}, {"b", "c"}, {"c", "d"}},
		},
		{
			name:  "edge implied through a node inserted earlier",
			nodes: []string{"mid", "top", "bottom"},
			edges: [][2]string{{"top", "bottom"}, {"mid", "bottom"}, {"top", "mid"}},
			want:  []e{{"mid", "bottom"}, {"top", "mid"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(tt.nodes, tt.edges)
			before := g.Copy()
			reduced, err := g.Reduced()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(snap(before), snap(g)); diff != "" {
				t.Errorf("Reduced changed its receiver (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, reduced.Edges(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("edges (-want +got):\n%s", diff)
			}
			if err := g.TransitiveReduction(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(snap(reduced), snap(g)); diff != "" {
				t.Errorf("in-place reduction differs from Reduced (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTransitiveReductionCycle(t *testing.T) {
	g := build(nil, [][2]string{{"a", "b"}, {"b", "a"}, {"a", "c"}, {"b", "c"}})
	before := snap(g)
	var ce *dag.CycleError[string]
	if err := g.TransitiveReduction(); !errors.As(err, &ce) {
		t.Fatalf("error = %v, want *CycleError", err)
	}
	if diff := cmp.Diff(before, snap(g)); diff != "" {
		t.Errorf("graph changed (-want +got):\n%s", diff)
	}
	if r, err := g.Reduced(); r != nil || !errors.As(err, &ce) {
		t.Errorf("Reduced = %v, %v; want nil, *CycleError", r, err)
	}
}

// TestTransitiveReductionRandom compares the reduction with brute force on
// random DAGs: reachability is unchanged, and an edge u → v is removed
// exactly when v is reachable from another successor of u. The kept edges
// keep their order.
func TestTransitiveReductionRandom(t *testing.T) {
	for seed := range uint64(300) {
		r := newRand(seed)
		n := r.IntN(45)
		g := randomDAG(r, n, r.Float64()*0.4)
		reach := reachability(g)

		var want []dag.Edge[int]
		for _, edge := range g.Edges() {
			redundant := false
			for _, w := range g.Successors(edge.From) {
				if w != edge.To && reach[w][edge.To] {
					redundant = true
				}
			}
			if !redundant {
				want = append(want, edge)
			}
		}
		if err := g.TransitiveReduction(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, g.Edges(), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("seed %d: edges (-want +got):\n%s", seed, diff)
		}
		if g.EdgeCount() != len(want) {
			t.Fatalf("seed %d: EdgeCount = %d, want %d", seed, g.EdgeCount(), len(want))
		}
		after := reachability(g)
		for a := range n {
			for b := range n {
				if reach[a][b] != after[a][b] {
					t.Fatalf("seed %d: %d reaches %d: %v before, %v after", seed, a, b, reach[a][b], after[a][b])
				}
			}
		}
		for _, k := range g.Nodes() {
			for _, p := range g.Predecessors(k) {
				if !g.HasEdge(p, k) {
					t.Fatalf("seed %d: predecessor list of %d keeps removed edge from %d", seed, k, p)
				}
			}
		}
	}
}
