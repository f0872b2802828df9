package graphview

import (
	"cmp"
	"slices"
	"strings"
)

// Layout places the nodes of a Document in layers (columns, left to right
// in the direction of the edges) and rows. Every module has a band of rows
// of its own, so a module's nodes stay together and the page can collapse
// it; within a band and a layer, nodes are ordered to reduce crossings.
type Layout struct {
	// Layers is the number of layers.
	Layers int `json:"layers"`
	// Groups are the module bands, top to bottom: the root module first,
	// then modules in address order (a parent before its children).
	Groups []Group `json:"groups"`
	// Layer, Group and Row give each node's layer, band (an index into
	// Groups) and row within its band, indexed by node ID.
	Layer []int     `json:"layer"`
	Group []int     `json:"group"`
	Row   []float64 `json:"row"`
}

// Group is the band of one module instance.
type Group struct {
	// Module is the module instance's address, "" for the root module.
	Module string `json:"module"`
	// Depth is how many module calls deep the module is.
	Depth int `json:"depth"`
	// Rows is the band's height in rows: the most nodes it has in one layer.
	Rows int `json:"rows"`
	// Nodes is the number of nodes in the band.
	Nodes int `json:"nodes"`
	// First and Last are the first and last layers with a node of the band.
	First int `json:"first"`
	Last  int `json:"last"`
}

// sweeps is how many down-and-up barycenter passes order the layers.
const sweeps = 4

// LayoutOf computes the layout of d: each node in the layer one past the
// longest path of edges that reaches it (nodes on a cycle, which a valid
// graph has none of, go one past the last layer), then, within each layer
// and band, ordered by the mean row of their neighbours in alternate
// downward and upward sweeps. It runs in O((N + E) · sweeps + N log N).
func LayoutOf(d *Document) *Layout {
	n := len(d.Nodes)
	l := &Layout{Layer: make([]int, n), Group: make([]int, n), Row: make([]float64, n)}
	preds := make([][]int, n)
	succs := make([][]int, n)
	for _, e := range d.Edges {
		if e.From == e.To {
			continue
		}
		succs[e.From] = append(succs[e.From], e.To)
		preds[e.To] = append(preds[e.To], e.From)
	}

	// Longest-path layering in topological order (Kahn).
	indeg := make([]int, n)
	for i := range preds {
		indeg[i] = len(preds[i])
	}
	queue := make([]int, 0, n)
	for i := range indeg {
		if indeg[i] == 0 {
			queue = append(queue, i)
		}
	}
	placed := 0
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		placed++
		for _, s := range succs[v] {
			l.Layer[s] = max(l.Layer[s], l.Layer[v]+1)
			if indeg[s]--; indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
		l.Layers = max(l.Layers, l.Layer[v]+1)
	}
	if placed < n {
		for i := range indeg {
			if indeg[i] > 0 {
				l.Layer[i] = l.Layers
			}
		}
		l.Layers++
	}

	// Bands: one per module, the root first, parents before children.
	mods := map[string]int{}
	var names []string
	for _, nd := range d.Nodes {
		if _, ok := mods[nd.Module]; !ok {
			mods[nd.Module] = 0
			names = append(names, nd.Module)
		}
	}
	// The root module ("") sorts first and a module before the modules it calls.
	slices.Sort(names)
	l.Groups = make([]Group, len(names))
	for i, m := range names {
		mods[m] = i
		l.Groups[i] = Group{Module: m, Depth: strings.Count(m, "module."), First: l.Layers, Last: -1}
	}
	// cells[layer][group] holds the nodes of one layer in one band, in row order.
	cells := make([][][]int, l.Layers)
	for i := range cells {
		cells[i] = make([][]int, len(names))
	}
	for i, nd := range d.Nodes {
		g := mods[nd.Module]
		l.Group[i] = g
		grp := &l.Groups[g]
		grp.Nodes++
		grp.First, grp.Last = min(grp.First, l.Layer[i]), max(grp.Last, l.Layer[i])
		cells[l.Layer[i]][g] = append(cells[l.Layer[i]][g], i)
	}
	for _, layer := range cells {
		for g, cell := range layer {
			l.Groups[g].Rows = max(l.Groups[g].Rows, len(cell))
		}
	}
	offset := make([]float64, len(names))
	total := 0.0
	for g := range l.Groups {
		offset[g] = total
		total += float64(l.Groups[g].Rows) + 1
	}

	place := func(layer int) {
		for g, cell := range cells[layer] {
			pad := float64(l.Groups[g].Rows-len(cell)) / 2
			for i, v := range cell {
				l.Row[v] = float64(i) + pad
			}
		}
	}
	for layer := range cells {
		place(layer)
	}
	// y is a node's position across bands, for barycenters.
	y := func(v int) float64 { return offset[l.Group[v]] + l.Row[v] }
	key := make([]float64, n)
	order := func(layer int, nb [][]int) {
		for _, cell := range cells[layer] {
			for _, v := range cell {
				key[v] = y(v)
				if len(nb[v]) > 0 {
					sum := 0.0
					for _, u := range nb[v] {
						sum += y(u)
					}
					key[v] = sum / float64(len(nb[v]))
				}
			}
			slices.SortStableFunc(cell, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
		}
		place(layer)
	}
	for range sweeps {
		for layer := 1; layer < l.Layers; layer++ {
			order(layer, preds)
		}
		for layer := l.Layers - 2; layer >= 0; layer-- {
			order(layer, succs)
		}
	}
	return l
}
