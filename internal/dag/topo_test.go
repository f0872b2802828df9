package dag_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rig-iac/rig/internal/dag"
)

func TestTopoOrder(t *testing.T) {
	tests := []struct {
		name  string
		nodes []string
		edges [][2]string
		want  []string
	}{
		{name: "empty", want: []string{}},
		{
			name:  "no edges keeps insertion order",
			nodes: []string{"c", "a", "b"},
			want:  []string{"c", "a", "b"},
		},
		{
			name:  "edges override insertion order",
			nodes: []string{"c", "a", "b"},
			edges: [][2]string{{"b", "c"}},
			want:  []string{"a", "b", "c"},
		},
		{
			name:  "earliest inserted ready node goes next",
			nodes: []string{"d", "c", "b", "a"},
			// b and a are ready first; b was inserted earlier.
			edges: [][2]string{{"a", "d"}, {"d", "c"}},
			want:  []string{"b", "a", "d", "c"},
		},
		{
			name:  "diamond",
			nodes: []string{"top", "left", "right", "bottom"},
			edges: [][2]string{{"top", "right"}, {"top", "left"}, {"left", "bottom"}, {"right", "bottom"}},
			want:  []string{"top", "left", "right", "bottom"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(tt.nodes, tt.edges)
			got, err := g.TopoOrder()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("TopoOrder (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTopoOrderRandom checks that the order respects every edge and is the
// smallest by insertion order, against a quadratic oracle that repeatedly
// takes the first node in insertion order whose predecessors are placed.
func TestTopoOrderRandom(t *testing.T) {
	for seed := range uint64(200) {
		r := newRand(seed)
		g := randomDAG(r, r.IntN(40), r.Float64()*0.3)
		got, err := g.TopoOrder()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkTopo(t, g, got)

		placed := make(map[int]bool)
		var want []int
		for len(want) < g.Len() {
			for _, k := range g.Nodes() {
				if placed[k] {
					continue
				}
				ready := true
				for _, p := range g.Predecessors(k) {
					ready = ready && placed[p]
				}
				if ready {
					placed[k] = true
					want = append(want, k)
					break
				}
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("seed %d: TopoOrder (-want +got):\n%s", seed, diff)
		}
	}
}

func TestTopoOrderCycle(t *testing.T) {
	g := build([]string{"a", "b", "c"}, [][2]string{{"a", "b"}, {"b", "c"}, {"c", "b"}})
	order, err := g.TopoOrder()
	var ce *dag.CycleError[string]
	if !errors.As(err, &ce) || order != nil {
		t.Fatalf("TopoOrder = %v, %v; want nil, *CycleError", order, err)
	}
	if diff := cmp.Diff([][]string{{"b", "c"}}, ce.Cycles); diff != "" {
		t.Errorf("cycles (-want +got):\n%s", diff)
	}
}

func TestWaves(t *testing.T) {
	tests := []struct {
		name  string
		nodes []string
		edges [][2]string
		want  [][]string
	}{
		{name: "empty", want: [][]string{}},
		{
			name:  "independent nodes share one wave",
			nodes: []string{"b", "a"},
			want:  [][]string{{"b", "a"}},
		},
		{
			name:  "longest path decides the wave",
			nodes: []string{"d", "c", "b", "a"},
			// a→b→c→d and a→d: d waits for c.
			edges: [][2]string{{"a", "b"}, {"b", "c"}, {"c", "d"}, {"a", "d"}},
			want:  [][]string{{"a"}, {"b"}, {"c"}, {"d"}},
		},
		{
			name:  "insertion order within a wave",
			nodes: []string{"z", "y", "x", "root"},
			edges: [][2]string{{"root", "x"}, {"root", "z"}, {"root", "y"}},
			want:  [][]string{{"root"}, {"z", "y", "x"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := build(tt.nodes, tt.edges).Waves()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Waves (-want +got):\n%s", diff)
			}
		})
	}

	_, err := build(nil, [][2]string{{"a", "a"}}).Waves()
	var ce *dag.CycleError[string]
	if !errors.As(err, &ce) {
		t.Errorf("Waves on a self-edge: error %v, want *CycleError", err)
	}
}

// TestWavesRandom checks that every node's predecessors are in earlier
// waves, that every node past wave 0 has one in the wave just before, and
// that each wave is in insertion order.
func TestWavesRandom(t *testing.T) {
	for seed := range uint64(200) {
		r := newRand(seed)
		g := randomDAG(r, r.IntN(40), r.Float64()*0.3)
		waves, err := g.Waves()
		if err != nil {
			t.Fatal(err)
		}
		wave := make(map[int]int)
		total := 0
		for i, w := range waves {
			if len(w) == 0 {
				t.Fatalf("seed %d: wave %d empty", seed, i)
			}
			for _, k := range w {
				wave[k] = i
			}
			total += len(w)
		}
		if total != g.Len() || len(wave) != g.Len() {
			t.Fatalf("seed %d: waves hold %d entries, %d distinct; want %d", seed, total, len(wave), g.Len())
		}
		insertion := make(map[int]int)
		for i, k := range g.Nodes() {
			insertion[k] = i
		}
		for _, w := range waves {
			for i := 1; i < len(w); i++ {
				if insertion[w[i-1]] > insertion[w[i]] {
					t.Fatalf("seed %d: wave %v not in insertion order", seed, w)
				}
			}
		}
		for _, k := range g.Nodes() {
			latest := -1
			for _, p := range g.Predecessors(k) {
				if wave[p] >= wave[k] {
					t.Fatalf("seed %d: %d in wave %d, its predecessor %d in wave %d", seed, k, wave[k], p, wave[p])
				}
				latest = max(latest, wave[p])
			}
			if wave[k] != latest+1 {
				t.Fatalf("seed %d: %d in wave %d, latest predecessor in %d", seed, k, wave[k], latest)
			}
		}
	}
}
