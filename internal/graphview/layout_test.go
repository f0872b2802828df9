package graphview

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// doc builds a document of nodes named by their labels ("module.a:x" is
// node x of module.a) and edges "x>y".
func doc(nodes []string, edges ...[2]int) *Document {
	d := &Document{Kind: KindOperations}
	for i, n := range nodes {
		mod, label := "", n
		for j := len(n) - 1; j >= 0; j-- {
			if n[j] == ':' {
				mod, label = n[:j], n[j+1:]
				break
			}
		}
		d.Nodes = append(d.Nodes, Node{ID: i, Label: label, Address: label, Module: mod, Action: ActionCreate})
	}
	for _, e := range edges {
		d.Edges = append(d.Edges, Edge{From: e[0], To: e[1]})
	}
	return d
}

func TestLayoutLayers(t *testing.T) {
	tests := []struct {
		name       string
		doc        *Document
		wantLayers []int
	}{
		{"chain", doc([]string{"a", "b", "c"}, [2]int{0, 1}, [2]int{1, 2}), []int{0, 1, 2}},
		{"longest path wins", doc([]string{"a", "b", "c"}, [2]int{0, 1}, [2]int{1, 2}, [2]int{0, 2}), []int{0, 1, 2}},
		{"diamond", doc([]string{"a", "b", "c", "d"}, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 3}, [2]int{2, 3}), []int{0, 1, 1, 2}},
		{"independent nodes share the first layer", doc([]string{"a", "b", "c"}), []int{0, 0, 0}},
		{"a cycle goes past the last layer", doc([]string{"a", "b", "c"}, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 1}), []int{0, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := LayoutOf(tt.doc)
			if diff := cmp.Diff(tt.wantLayers, l.Layer); diff != "" {
				t.Errorf("layers (-want +got)\n%s", diff)
			}
		})
	}
}

// TestLayoutBands checks that every module has a band, the root module's
// first and each module before the modules it calls, as tall as its
// fullest layer.
func TestLayoutBands(t *testing.T) {
	d := doc([]string{"module.b:x", "module.a.module.c:y", "r", "module.a:p", "module.a:q", "module.a:s"},
		[2]int{2, 3}, [2]int{2, 4}, [2]int{3, 5}, [2]int{5, 1}, [2]int{1, 0})
	l := LayoutOf(d)
	want := []Group{
		{Module: "", Depth: 0, Rows: 1, Nodes: 1, First: 0, Last: 0},
		{Module: "module.a", Depth: 1, Rows: 2, Nodes: 3, First: 1, Last: 2},
		{Module: "module.a.module.c", Depth: 2, Rows: 1, Nodes: 1, First: 3, Last: 3},
		{Module: "module.b", Depth: 1, Rows: 1, Nodes: 1, First: 4, Last: 4},
	}
	if diff := cmp.Diff(want, l.Groups); diff != "" {
		t.Errorf("groups (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]int{3, 2, 0, 1, 1, 1}, l.Group); diff != "" {
		t.Errorf("node bands (-want +got)\n%s", diff)
	}
}

// TestLayoutUncrosses checks that barycenter ordering removes the
// crossing of a → d, b → c (c and d start in name order).
func TestLayoutUncrosses(t *testing.T) {
	d := doc([]string{"a", "b", "c", "d", "e"}, [2]int{0, 3}, [2]int{1, 2}, [2]int{0, 4})
	l := LayoutOf(d)
	if l.Row[0] >= l.Row[1] {
		t.Fatalf("rows of a, b = %v, %v: want a above b", l.Row[0], l.Row[1])
	}
	// a's successors d and e above b's successor c.
	if !(l.Row[3] < l.Row[2] && l.Row[4] < l.Row[2]) {
		t.Errorf("rows of c, d, e = %v, %v, %v: want d and e (after a) above c (after b)", l.Row[2], l.Row[3], l.Row[4])
	}
}

// TestLayoutLarge checks that a 10,000-operation plan is laid out with
// every node in a layer after all its predecessors.
func TestLayoutLarge(t *testing.T) {
	g := largeGraph(t)
	d := Build(g, nil)
	l := LayoutOf(d)
	for _, e := range d.Edges {
		if l.Layer[e.From] >= l.Layer[e.To] {
			t.Fatalf("edge %s → %s goes from layer %d to %d", d.Nodes[e.From].Label, d.Nodes[e.To].Label, l.Layer[e.From], l.Layer[e.To])
		}
	}
	for g, grp := range l.Groups {
		seen := map[[2]float64]bool{}
		for v := range d.Nodes {
			if l.Group[v] != g {
				continue
			}
			k := [2]float64{float64(l.Layer[v]), l.Row[v]}
			if seen[k] {
				t.Fatalf("two nodes of %s at layer %v, row %v", grp.Module, k[0], k[1])
			}
			seen[k] = true
		}
	}
}
