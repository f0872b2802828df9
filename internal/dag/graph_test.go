package dag_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rig-iac/rig/internal/dag"
)

// snapshot is everything a graph shows through its queries.
type snapshot struct {
	Nodes []string
	Edges []dag.Edge[string]
	Succ  map[string][]string
	Pred  map[string][]string
	Len   int
	Count int
}

func snap(g *dag.Graph[string]) snapshot {
	s := snapshot{
		Nodes: g.Nodes(),
		Edges: g.Edges(),
		Succ:  map[string][]string{},
		Pred:  map[string][]string{},
		Len:   g.Len(),
		Count: g.EdgeCount(),
	}
	for _, n := range s.Nodes {
		if succ := g.Successors(n); succ != nil {
			s.Succ[n] = succ
		}
		if pred := g.Predecessors(n); pred != nil {
			s.Pred[n] = pred
		}
		if g.OutDegree(n) != len(g.Successors(n)) || g.InDegree(n) != len(g.Predecessors(n)) {
			panic("degree disagrees with adjacency")
		}
	}
	return s
}

type e = dag.Edge[string]

func TestGraphEditing(t *testing.T) {
	tests := []struct {
		name string
		edit func(g *dag.Graph[string])
		want snapshot
	}{
		{
			name: "empty",
			edit: func(g *dag.Graph[string]) {},
			want: snapshot{Succ: map[string][]string{}, Pred: map[string][]string{}},
		},
		{
			name: "add is idempotent and keeps first position",
			edit: func(g *dag.Graph[string]) {
				g.Add("b")
				g.Add("a")
				g.Add("b")
			},
			want: snapshot{
				Nodes: []string{"b", "a"},
				Succ:  map[string][]string{}, Pred: map[string][]string{},
				Len: 2,
			},
		},
		{
			name: "connect adds missing nodes from first and is idempotent",
			edit: func(g *dag.Graph[string]) {
				g.Connect("x", "y")
				g.Connect("x", "y")
				g.Connect("w", "y")
				g.Connect("x", "w")
			},
			want: snapshot{
				Nodes: []string{"x", "y", "w"},
				Edges: []e{{"x", "y"}, {"x", "w"}, {"w", "y"}},
				Succ:  map[string][]string{"x": {"y", "w"}, "w": {"y"}},
				Pred:  map[string][]string{"y": {"x", "w"}, "w": {"x"}},
				Len:   3, Count: 3,
			},
		},
		{
			name: "self-edge is kept once",
			edit: func(g *dag.Graph[string]) {
				g.Connect("a", "a")
				g.Connect("a", "a")
			},
			want: snapshot{
				Nodes: []string{"a"},
				Edges: []e{{"a", "a"}},
				Succ:  map[string][]string{"a": {"a"}},
				Pred:  map[string][]string{"a": {"a"}},
				Len:   1, Count: 1,
			},
		},
		{
			name: "remove edge keeps nodes and the order of other edges",
			edit: func(g *dag.Graph[string]) {
				g.Connect("a", "b")
				g.Connect("a", "c")
				g.Connect("a", "d")
				g.RemoveEdge("a", "c")
				g.RemoveEdge("a", "c")  // already gone
				g.RemoveEdge("c", "a")  // never existed
				g.RemoveEdge("zz", "a") // missing node
				g.Connect("a", "c")     // re-added last
			},
			want: snapshot{
				Nodes: []string{"a", "b", "c", "d"},
				Edges: []e{{"a", "b"}, {"a", "d"}, {"a", "c"}},
				Succ:  map[string][]string{"a": {"b", "d", "c"}},
				Pred:  map[string][]string{"b": {"a"}, "c": {"a"}, "d": {"a"}},
				Len:   4, Count: 3,
			},
		},
		{
			name: "remove node drops its edges, self-edge included",
			edit: func(g *dag.Graph[string]) {
				g.Connect("a", "b")
				g.Connect("b", "c")
				g.Connect("b", "b")
				g.Connect("a", "c")
				g.Remove("b")
				g.Remove("b")
				g.Remove("nope")
			},
			want: snapshot{
				Nodes: []string{"a", "c"},
				Edges: []e{{"a", "c"}},
				Succ:  map[string][]string{"a": {"c"}},
				Pred:  map[string][]string{"c": {"a"}},
				Len:   2, Count: 1,
			},
		},
		{
			name: "a removed node added again goes last",
			edit: func(g *dag.Graph[string]) {
				g.Add("a")
				g.Add("b")
				g.Add("c")
				g.Remove("a")
				g.Connect("a", "b")
			},
			want: snapshot{
				Nodes: []string{"b", "c", "a"},
				Edges: []e{{"a", "b"}},
				Succ:  map[string][]string{"a": {"b"}},
				Pred:  map[string][]string{"b": {"a"}},
				Len:   3, Count: 1,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := dag.New[string]()
			tt.edit(g)
			if diff := cmp.Diff(tt.want, snap(g), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("graph (-want +got):\n%s", diff)
			}
		})
	}
}

func TestQueriesOnMissingNodes(t *testing.T) {
	g := build([]string{"a"}, nil)
	if g.Has("x") || g.HasEdge("a", "x") || g.HasEdge("x", "a") {
		t.Errorf("missing node reported present")
	}
	if g.Successors("x") != nil || g.Predecessors("x") != nil || g.Successors("a") != nil {
		t.Errorf("want nil slices for missing nodes and nodes without edges")
	}
	if g.InDegree("x") != 0 || g.OutDegree("x") != 0 {
		t.Errorf("want degree 0 for a missing node")
	}
}

func TestRemoveManyKeepsOrder(t *testing.T) {
	// Enough removals to force the internal renumbering several times.
	const n = 2000
	g := dag.New[int]()
	for i := range n {
		if i+1 < n {
			g.Connect(i, i+1)
		}
		if i+2 < n {
			g.Connect(i, i+2)
		}
	}
	for i := 0; i < n; i += 3 {
		g.Remove(i)
	}
	var wantNodes []int
	for i := range n {
		if i%3 != 0 {
			wantNodes = append(wantNodes, i)
		}
	}
	if diff := cmp.Diff(wantNodes, g.Nodes()); diff != "" {
		t.Fatalf("nodes (-want +got):\n%s", diff)
	}
	wantEdges := 0
	for _, i := range wantNodes {
		var want []int
		if (i+1)%3 != 0 && i+1 < n {
			want = append(want, i+1)
		}
		if (i+2)%3 != 0 && i+2 < n {
			want = append(want, i+2)
		}
		wantEdges += len(want)
		if diff := cmp.Diff(want, g.Successors(i)); diff != "" {
			t.Fatalf("successors of %d (-want +got):\n%s", i, diff)
		}
	}
	if g.EdgeCount() != wantEdges {
		t.Errorf("EdgeCount = %d, want %d", g.EdgeCount(), wantEdges)
	}
	// The graph stays fully usable after renumbering.
	g.Connect(1, 2000)
	if !g.HasEdge(1, 2000) || g.Nodes()[len(g.Nodes())-1] != 2000 {
		t.Errorf("connect after removals misplaced")
	}
}

func TestCopyIsIndependent(t *testing.T) {
	g := build([]string{"a", "b", "c"}, [][2]string{{"a", "b"}, {"b", "c"}, {"a", "c"}})
	g.Remove("b")
	g.Connect("a", "b")
	before := snap(g)
	c := g.Copy()
	if diff := cmp.Diff(before, snap(c)); diff != "" {
		t.Fatalf("copy (-want +got):\n%s", diff)
	}
	c.Connect("c", "d")
	c.RemoveEdge("a", "c")
	c.Remove("b")
	c.Connect("a", "x") // appends to a's list: must not leak into g
	if diff := cmp.Diff(before, snap(g)); diff != "" {
		t.Errorf("original changed by editing copy (-want +got):\n%s", diff)
	}
	g.Connect("a", "y")
	if c.Has("y") {
		t.Errorf("copy changed by editing original")
	}
}

func TestReverse(t *testing.T) {
	g := build([]string{"a", "b", "c", "d"}, [][2]string{{"a", "c"}, {"b", "c"}, {"c", "d"}, {"d", "d"}})
	r := g.Reverse()
	want := snapshot{
		Nodes: []string{"a", "b", "c", "d"},
		Edges: []e{{"c", "a"}, {"c", "b"}, {"d", "c"}, {"d", "d"}},
		Succ:  map[string][]string{"c": {"a", "b"}, "d": {"c", "d"}},
		Pred:  map[string][]string{"a": {"c"}, "b": {"c"}, "c": {"d"}, "d": {"d"}},
		Len:   4, Count: 4,
	}
	if diff := cmp.Diff(want, snap(r)); diff != "" {
		t.Errorf("reverse (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(snap(g), snap(r.Reverse())); diff != "" {
		t.Errorf("reversing twice (-want +got):\n%s", diff)
	}
}

// TestEdgePositions: each edge's ends are positions in Nodes, in the order
// of Edges, with removed nodes (holes before renumbering) skipped.
func TestEdgePositions(t *testing.T) {
	g := dag.New[string]()
	g.Connect("a", "b")
	g.Connect("x", "c")
	g.Connect("b", "c")
	g.Connect("a", "c")
	g.Remove("x")
	nodes := g.Nodes()
	var got []dag.Edge[string]
	for _, e := range g.EdgePositions() {
		got = append(got, dag.Edge[string]{From: nodes[e[0]], To: nodes[e[1]]})
	}
	if diff := cmp.Diff(g.Edges(), got); diff != "" {
		t.Errorf("edges by position (-Edges +EdgePositions):\n%s", diff)
	}
}

// TestConnectFrom: connecting a node's predecessors at once, by key or by
// node, gives the graph that connecting them one by one gives, duplicates, existing edges,
// self-edges and removed nodes included, for batches small and large.
func TestConnectFrom(t *testing.T) {
	batches := []struct {
		to    string
		froms []string
	}{
		{"t", []string{"a", "b", "a"}},
		{"t", []string{"c", "a", "d", "e", "f", "g", "h", "i", "j", "c", "t", "k"}},
		{"u", []string{"t", "a", "b", "c", "d", "e", "f", "g", "h", "t", "u", "u"}},
		{"t", []string{"k", "j", "i", "h", "g", "f", "e", "d", "c", "b", "a", "x"}},
	}
	one, all, nodes := dag.New[string](), dag.New[string](), dag.New[string]()
	for i, b := range batches {
		if i == 2 {
			one.Remove("b")
			all.Remove("b")
			nodes.Remove("b")
		}
		one.Add(b.to)
		for _, from := range b.froms {
			one.Connect(from, b.to)
		}
		all.ConnectFrom(b.froms, b.to)
		to := nodes.Node(b.to)
		var froms []dag.Node
		for _, from := range b.froms {
			froms = append(froms, nodes.Node(from))
		}
		nodes.ConnectNodes(froms, to)
		if diff := cmp.Diff(snap(one), snap(all)); diff != "" {
			t.Fatalf("after batch %d (-Connect +ConnectFrom):\n%s", i, diff)
		}
		if diff := cmp.Diff(snap(one), snap(nodes)); diff != "" {
			t.Fatalf("after batch %d (-Connect +ConnectNodes):\n%s", i, diff)
		}
	}
}
