package dag

import (
	"fmt"
	"math"
	"slices"
)

// Graph is a directed graph over comparable keys. An edge from → to means
// "from must finish before to starts": from is a predecessor of to, and to a
// successor of from.
//
// Nodes keep the order in which they were first added, and each node's edges
// keep the order in which they were connected; every query returns keys in
// those orders, so output built from a Graph is deterministic.
//
// Self-edges (Connect(k, k)) are kept: they are cycles, reported by Cycles and
// refused by TopoOrder, Waves, TransitiveReduction and Walk.
//
// The zero Graph is not usable; call New.
type Graph[K comparable] struct {
	// keys[id] is the key of node id. Ids are dense and increase in insertion
	// order; a removed node leaves a hole (live[id] false, keys[id] zero) until
	// the next compaction renumbers the survivors, preserving their order.
	keys  []K
	live  []bool
	index map[K]int32 // key → id, live nodes only
	out   [][]int32   // out[id]: successor ids in edge insertion order
	in    [][]int32   // in[id]: predecessor ids in edge insertion order
	edges int
	// marks[id] == stamp marks the predecessors of the node ConnectFrom
	// is connecting; a new stamp clears every mark.
	marks []uint32
	stamp uint32
}

// Edge is one directed edge: From must finish before To starts.
type Edge[K comparable] struct {
	From, To K
}

// New returns an empty graph.
func New[K comparable]() *Graph[K] {
	return &Graph[K]{index: make(map[K]int32)}
}

// NewSized returns an empty graph with room for n nodes, for a caller that
// knows about how many it will add: the graph then grows no tables.
func NewSized[K comparable](n int) *Graph[K] {
	return &Graph[K]{index: make(map[K]int32, n), keys: make([]K, 0, n), live: make([]bool, 0, n),
		out: make([][]int32, 0, n), in: make([][]int32, 0, n)}
}

// Add adds k as a node. Adding a node that is already present does nothing,
// and in particular does not change its position in the insertion order.
func (g *Graph[K]) Add(k K) {
	g.id(k)
}

// id returns k's id, adding k first if it is missing.
func (g *Graph[K]) id(k K) int32 {
	if id, ok := g.index[k]; ok {
		return id
	}
	if len(g.keys) >= math.MaxInt32 {
		panic(fmt.Sprintf("dag: graph exceeds %d node slots", math.MaxInt32))
	}
	id := int32(len(g.keys))
	g.keys = append(g.keys, k)
	g.live = append(g.live, true)
	g.out = append(g.out, nil)
	g.in = append(g.in, nil)
	g.index[k] = id
	return id
}

// Connect adds the edge from → to, meaning from must finish before to
// starts. Missing nodes are added (from first). Connecting an existing edge
// does nothing. Connect(k, k) adds a self-edge, which is a cycle.
//
// Checking for an existing edge scans the shorter of from's successor list
// and to's predecessor list, so Connect is cheap on sparse graphs.
func (g *Graph[K]) Connect(from, to K) {
	g.connectIDs(g.id(from), g.id(to))
}

// Node is a node of one graph, for a caller that connects it many times
// without looking its key up each time. It stays valid until Remove is
// called on the graph.
type Node int32

// Node returns k's node, adding k first if it is missing.
func (g *Graph[K]) Node(k K) Node { return Node(g.id(k)) }

// ConnectFrom adds the edges from each of froms to to, as Connect would
// one by one (to is added first if it is missing). Each edge costs O(1)
// whatever to's in-degree: for a node with hundreds of predecessors.
func (g *Graph[K]) ConnectFrom(froms []K, to K) {
	t := g.id(to)
	g.stampPreds(t, len(froms))
	for _, from := range froms {
		g.connectStamped(g.id(from), t, len(froms))
	}
}

// ConnectNodes is ConnectFrom for nodes of g.
func (g *Graph[K]) ConnectNodes(froms []Node, to Node) {
	t := int32(to)
	g.stampPreds(t, len(froms))
	for _, from := range froms {
		g.connectStamped(int32(from), t, len(froms))
	}
}

// stampPreds marks t's predecessors for connectStamped when n edges are
// about to be added to t; a few edges are checked by hasEdge instead.
func (g *Graph[K]) stampPreds(t int32, n int) {
	if n < 8 {
		return
	}
	if g.stamp++; g.stamp == 0 {
		clear(g.marks)
		g.stamp = 1
	}
	for _, p := range g.in[t] {
		g.mark(p)
	}
}

// connectStamped adds the edge f → t unless it exists, for one of n edges
// added to t after stampPreds(t, n).
func (g *Graph[K]) connectStamped(f, t int32, n int) {
	if n < 8 {
		g.connectIDs(f, t)
		return
	}
	if int(f) < len(g.marks) && g.marks[f] == g.stamp {
		return
	}
	g.mark(f)
	g.out[f] = append(g.out[f], t)
	g.in[t] = append(g.in[t], f)
	g.edges++
}

// mark marks id with the current stamp.
func (g *Graph[K]) mark(id int32) {
	if int(id) >= len(g.marks) {
		g.marks = append(g.marks, make([]uint32, len(g.keys)-len(g.marks))...)
	}
	g.marks[id] = g.stamp
}

// connectIDs adds the edge f → t unless it exists.
func (g *Graph[K]) connectIDs(f, t int32) {
	if g.hasEdge(f, t) {
		return
	}
	g.out[f] = append(g.out[f], t)
	g.in[t] = append(g.in[t], f)
	g.edges++
}

// hasEdge reports whether the edge f → t exists.
func (g *Graph[K]) hasEdge(f, t int32) bool {
	if len(g.out[f]) <= len(g.in[t]) {
		return slices.Contains(g.out[f], t)
	}
	return slices.Contains(g.in[t], f)
}

// RemoveEdge removes the edge from → to if it exists. The nodes stay.
func (g *Graph[K]) RemoveEdge(from, to K) {
	f, ok1 := g.index[from]
	t, ok2 := g.index[to]
	if !ok1 || !ok2 || !g.hasEdge(f, t) {
		return
	}
	g.out[f] = deleteID(g.out[f], t)
	g.in[t] = deleteID(g.in[t], f)
	g.edges--
}

// deleteID removes the first occurrence of id from s, keeping the order of
// the rest.
func deleteID(s []int32, id int32) []int32 {
	if i := slices.Index(s, id); i >= 0 {
		return slices.Delete(s, i, i+1)
	}
	return s
}

// Remove removes k and every edge touching it. Removing a missing node does
// nothing. The remaining nodes and edges keep their relative order. It costs
// the length of k's neighbours' edge lists, plus an occasional O(N + E)
// renumbering once removed nodes outnumber the rest.
func (g *Graph[K]) Remove(k K) {
	id, ok := g.index[k]
	if !ok {
		return
	}
	removed := len(g.out[id]) + len(g.in[id])
	for _, s := range g.out[id] {
		if s == id {
			removed-- // a self-edge is in both lists but is one edge
			continue
		}
		g.in[s] = deleteID(g.in[s], id)
	}
	for _, p := range g.in[id] {
		if p != id {
			g.out[p] = deleteID(g.out[p], id)
		}
	}
	g.edges -= removed
	g.out[id], g.in[id] = nil, nil
	g.live[id] = false
	var zero K
	g.keys[id] = zero
	delete(g.index, k)

	if dead := len(g.keys) - len(g.index); dead > 64 && dead > len(g.index) {
		g.compact()
	}
}

// compact renumbers the live nodes densely, keeping their order, so that
// holes left by Remove cost nothing. It runs only from Remove, never from a
// method that merely reads.
func (g *Graph[K]) compact() {
	newID := g.denseIDs()
	n := len(g.index)
	keys := make([]K, 0, n)
	out := make([][]int32, 0, n)
	in := make([][]int32, 0, n)
	for id, alive := range g.live {
		if !alive {
			continue
		}
		for i, s := range g.out[id] {
			g.out[id][i] = newID[s]
		}
		for i, p := range g.in[id] {
			g.in[id][i] = newID[p]
		}
		keys = append(keys, g.keys[id])
		out = append(out, g.out[id])
		in = append(in, g.in[id])
		g.index[g.keys[id]] = newID[id]
	}
	g.keys, g.out, g.in = keys, out, in
	g.live = make([]bool, n)
	for i := range g.live {
		g.live[i] = true
	}
}

// Has reports whether k is a node of g.
func (g *Graph[K]) Has(k K) bool {
	_, ok := g.index[k]
	return ok
}

// HasEdge reports whether the edge from → to exists.
func (g *Graph[K]) HasEdge(from, to K) bool {
	f, ok1 := g.index[from]
	t, ok2 := g.index[to]
	return ok1 && ok2 && g.hasEdge(f, t)
}

// Len returns the number of nodes.
func (g *Graph[K]) Len() int {
	return len(g.index)
}

// EdgeCount returns the number of edges, self-edges included.
func (g *Graph[K]) EdgeCount() int {
	return g.edges
}

// Nodes returns every node in insertion order. The caller owns the slice.
func (g *Graph[K]) Nodes() []K {
	nodes := make([]K, 0, len(g.index))
	for id, alive := range g.live {
		if alive {
			nodes = append(nodes, g.keys[id])
		}
	}
	return nodes
}

// Edges returns every edge, grouped by From in node insertion order and, for
// one From, in edge insertion order. The caller owns the slice.
func (g *Graph[K]) Edges() []Edge[K] {
	edges := make([]Edge[K], 0, g.edges)
	for id, alive := range g.live {
		if !alive {
			continue
		}
		for _, s := range g.out[id] {
			edges = append(edges, Edge[K]{From: g.keys[id], To: g.keys[s]})
		}
	}
	return edges
}

// EdgePositions returns every edge as the positions of its nodes in the
// slice Nodes returns, [from, to], in the order of Edges: what a caller
// that numbers the nodes by those positions needs, without a key lookup
// per edge. The caller owns the slice.
func (g *Graph[K]) EdgePositions() [][2]int {
	pos := g.denseIDs()
	edges := make([][2]int, 0, g.edges)
	for id, alive := range g.live {
		if !alive {
			continue
		}
		for _, s := range g.out[id] {
			edges = append(edges, [2]int{int(pos[id]), int(pos[s])})
		}
	}
	return edges
}

// Successors returns the nodes k must finish before, in the order their
// edges were connected. It returns nil if k is missing or has none. The
// caller owns the slice.
func (g *Graph[K]) Successors(k K) []K {
	id, ok := g.index[k]
	if !ok {
		return nil
	}
	return g.keysOf(g.out[id])
}

// Predecessors returns the nodes that must finish before k starts, in the
// order their edges were connected. It returns nil if k is missing or has
// none. The caller owns the slice.
func (g *Graph[K]) Predecessors(k K) []K {
	id, ok := g.index[k]
	if !ok {
		return nil
	}
	return g.keysOf(g.in[id])
}

// keysOf maps ids to keys in a new slice, or nil for no ids.
func (g *Graph[K]) keysOf(ids []int32) []K {
	if len(ids) == 0 {
		return nil
	}
	keys := make([]K, len(ids))
	for i, id := range ids {
		keys[i] = g.keys[id]
	}
	return keys
}

// InDegree returns the number of k's predecessors, or 0 if k is missing.
func (g *Graph[K]) InDegree(k K) int {
	if id, ok := g.index[k]; ok {
		return len(g.in[id])
	}
	return 0
}

// OutDegree returns the number of k's successors, or 0 if k is missing.
func (g *Graph[K]) OutDegree(k K) int {
	if id, ok := g.index[k]; ok {
		return len(g.out[id])
	}
	return 0
}

// Copy returns an independent copy of g with the same nodes, edges and
// orders.
func (g *Graph[K]) Copy() *Graph[K] {
	return g.clone(false)
}

// Reverse returns a new graph with g's nodes in the same order and every
// edge inverted: to → from for each from → to. A node's successors in the
// result are its predecessors in g, in the same order.
func (g *Graph[K]) Reverse() *Graph[K] {
	return g.clone(true)
}

// clone copies g, compacting ids, and swaps the edge direction if reverse.
func (g *Graph[K]) clone(reverse bool) *Graph[K] {
	n := len(g.index)
	c := &Graph[K]{
		keys:  make([]K, 0, n),
		live:  make([]bool, n),
		index: make(map[K]int32, n),
		out:   make([][]int32, 0, n),
		in:    make([][]int32, 0, n),
		edges: g.edges,
	}
	newID := g.denseIDs()
	// One backing array per direction keeps a copy of a large graph to a
	// handful of allocations.
	outBuf := make([]int32, 0, g.edges)
	inBuf := make([]int32, 0, g.edges)
	appendMapped := func(buf []int32, ids []int32) ([]int32, []int32) {
		start := len(buf)
		for _, id := range ids {
			buf = append(buf, newID[id])
		}
		return buf, buf[start:len(buf):len(buf)]
	}
	for id, alive := range g.live {
		if !alive {
			continue
		}
		srcOut, srcIn := g.out[id], g.in[id]
		if reverse {
			srcOut, srcIn = srcIn, srcOut
		}
		var o, i []int32
		outBuf, o = appendMapped(outBuf, srcOut)
		inBuf, i = appendMapped(inBuf, srcIn)
		c.index[g.keys[id]] = int32(len(c.keys))
		c.live[len(c.keys)] = true
		c.keys = append(c.keys, g.keys[id])
		c.out = append(c.out, nilIfEmpty(o))
		c.in = append(c.in, nilIfEmpty(i))
	}
	return c
}

// nilIfEmpty returns nil for an empty slice, so that appending to it later
// cannot write into a shared backing array.
func nilIfEmpty(s []int32) []int32 {
	if len(s) == 0 {
		return nil
	}
	return s
}

// denseIDs returns, for every id, its position among the live nodes (-1 for
// holes).
func (g *Graph[K]) denseIDs() []int32 {
	newID := make([]int32, len(g.keys))
	n := int32(0)
	for id, alive := range g.live {
		if alive {
			newID[id] = n
			n++
		} else {
			newID[id] = -1
		}
	}
	return newID
}
