package dag_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/dag"
)

func TestCycles(t *testing.T) {
	tests := []struct {
		name  string
		nodes []string
		edges [][2]string
		want  [][]string
	}{
		{
			name: "empty graph",
			want: nil,
		},
		{
			name:  "DAG has none",
			nodes: []string{"a", "b", "c", "d"},
			edges: [][2]string{{"a", "b"}, {"a", "c"}, {"b", "d"}, {"c", "d"}},
			want:  nil,
		},
		{
			name:  "self-edge",
			nodes: []string{"a", "b"},
			edges: [][2]string{{"a", "b"}, {"b", "b"}},
			want:  [][]string{{"b"}},
		},
		{
			name:  "two nodes",
			edges: [][2]string{{"a", "b"}, {"b", "a"}},
			want:  [][]string{{"a", "b"}},
		},
		{
			name:  "starts at the earliest inserted member",
			nodes: []string{"c", "b", "a"},
			edges: [][2]string{{"a", "b"}, {"b", "c"}, {"c", "a"}},
			want:  [][]string{{"c", "a", "b"}},
		},
		{
			name:  "shortest cycle through the first member",
			nodes: []string{"a", "b", "c", "d", "e"},
			// a→b→c→d→a and the shortcut a→e→d: shortest is a,e,d.
			edges: [][2]string{{"a", "b"}, {"b", "c"}, {"c", "d"}, {"d", "a"}, {"a", "e"}, {"e", "d"}},
			want:  [][]string{{"a", "e", "d"}},
		},
		{
			name:  "one cycle per component, in order of first member",
			nodes: []string{"x", "p", "q", "y", "r"},
			edges: [][2]string{
				{"q", "r"}, {"r", "q"}, // component {q, r}
				{"p", "x"}, {"x", "y"}, {"y", "p"}, // component {x, y, p}
				{"p", "q"}, // joins the two components one way only
				{"y", "y"}, // a self-edge inside a larger component adds nothing
			},
			want: [][]string{{"x", "y", "p"}, {"q", "r"}},
		},
		{
			name:  "cycle that avoids a node of the component on the way",
			nodes: []string{"a", "b", "c"},
			// b's only way back to a goes through c.
			edges: [][2]string{{"a", "b"}, {"b", "c"}, {"c", "a"}, {"c", "b"}},
			want:  [][]string{{"a", "b", "c"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(tt.nodes, tt.edges)
			got := g.Cycles()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Cycles (-want +got):\n%s", diff)
			}
			for _, c := range got {
				checkCycle(t, g, c)
			}
			_, err := g.TopoOrder()
			var ce *dag.CycleError[string]
			if len(tt.want) == 0 {
				if err != nil {
					t.Errorf("TopoOrder error %v on an acyclic graph", err)
				}
				return
			}
			if !errors.As(err, &ce) {
				t.Fatalf("TopoOrder error = %v, want a *CycleError", err)
			}
			if diff := cmp.Diff(tt.want, ce.Cycles); diff != "" {
				t.Errorf("CycleError.Cycles (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCyclesRandom checks Cycles against brute force: a node lies on a
// cycle exactly when it reaches itself, and Cycles reports one valid cycle
// per group of mutually reachable such nodes.
func TestCyclesRandom(t *testing.T) {
	for seed := range uint64(300) {
		r := newRand(seed)
		n := 1 + r.IntN(25)
		g := randomGraph(r, n, r.Float64()*0.15)
		reach := reachability(g)
		cycles := g.Cycles()

		// Group the nodes that reach themselves by mutual reachability.
		group := make([]int, n)
		groups := 0
		for a := range n {
			group[a] = -1
			if !reach[a][a] {
				continue
			}
			for b := range a {
				if group[b] >= 0 && reach[a][b] && reach[b][a] {
					group[a] = group[b]
					break
				}
			}
			if group[a] < 0 {
				group[a] = groups
				groups++
			}
		}
		if len(cycles) != groups {
			t.Fatalf("seed %d: %d cycles, want one for each of %d components", seed, len(cycles), groups)
		}
		covered := make(map[int]bool)
		for _, c := range cycles {
			checkCycle(t, g, c)
			for _, k := range c {
				if group[k] != group[c[0]] {
					t.Fatalf("seed %d: cycle %v leaves its component", seed, c)
				}
			}
			if covered[group[c[0]]] {
				t.Fatalf("seed %d: two cycles in one component", seed)
			}
			covered[group[c[0]]] = true
		}
		_, err := g.TopoOrder()
		if (err == nil) != (groups == 0) {
			t.Fatalf("seed %d: TopoOrder error %v with %d cyclic components", seed, err, groups)
		}
	}
}

func TestCyclesLongRingDoesNotRecurse(t *testing.T) {
	const n = 1_000_000
	g := dag.New[int]()
	for i := range n {
		g.Connect(i, (i+1)%n)
	}
	cycles := g.Cycles()
	if len(cycles) != 1 || len(cycles[0]) != n {
		t.Fatalf("got %d cycles, first of length %d; want one of length %d", len(cycles), len(cycles[0]), n)
	}
	for i, k := range cycles[0] {
		if k != i {
			t.Fatalf("cycle[%d] = %d", i, k)
		}
	}
	g.RemoveEdge(n-1, 0)
	if c := g.Cycles(); c != nil {
		t.Fatalf("chain reported cycles %v", c[0][:3])
	}
}

func TestFormatCycleAndError(t *testing.T) {
	name := func(i int) string { return "n" + strconv.Itoa(i) }
	tests := []struct {
		name string
		path []int
		want string
	}{
		{name: "empty", path: nil, want: ""},
		{name: "self-edge", path: []int{1}, want: "n1 → n1"},
		{name: "three", path: []int{1, 2, 3}, want: "n1 → n2 → n3 → n1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := dag.FormatCycle(tt.path, name, " → "); got != tt.want {
				t.Errorf("FormatCycle = %q, want %q", got, tt.want)
			}
		})
	}
	if got, want := dag.FormatCycle([]int{4, 5}, nil, ","), "4,5,4"; got != want {
		t.Errorf("FormatCycle with nil name = %q, want %q", got, want)
	}

	one := &dag.CycleError[int]{Cycles: [][]int{{1, 2}}}
	if got, want := one.Error(), "graph has a cycle: 1 -> 2 -> 1"; got != want {
		t.Errorf("Error = %q, want %q", got, want)
	}
	two := &dag.CycleError[string]{Cycles: [][]string{{"a"}, {"b", "c"}}}
	if got, want := two.Error(), "graph has 2 cycles: a -> a; b -> c -> b"; got != want {
		t.Errorf("Error = %q, want %q", got, want)
	}
}
