package dag

import (
	"cmp"
	"slices"
)

// TransitiveReduction removes every edge u → v for which another path from
// u to v exists, leaving the fewest edges with the same reachability. The
// remaining edges keep their order. If g has a cycle, it returns a
// *CycleError[K] and leaves g unchanged.
//
// Cost. Let pos be a topological position. First, for each node u with
// two or more successors, the successors are visited in increasing pos;
// each is redundant if a search from the earlier kept ones already reached
// it, and the search never enters nodes past u's last successor. On graphs
// whose edges are mostly short in topological order (layered graphs, the
// usual resource graphs) this is close to O(E · d) for out-degree d: about
// 50 ms for N = 10^5, E = 3·10^5. Its worst case is O(N · E), so its work
// is capped at the estimated cost of a second method, which takes over if
// the cap is hit: reachability bitsets over the targets (nodes with two or
// more predecessors, the only ones an edge can be redundant into), 256
// targets per pass, each pass O(N + E) over the nodes before its targets.
// That bounds the whole at O(T/256 · (N + E)) for T targets: about half a
// second for N = 10^5, E = 1.5·10^5, T = N/2 on a chain with long edges,
// the search's worst case. Memory is O(N + E).
func (g *Graph[K]) TransitiveReduction() error {
	order, ok := g.anyTopoIDs()
	if !ok {
		return g.cycleError()
	}
	r := newReducer(g, order)
	if !r.byWindowedSearch(r.bitsetCost()) {
		r.byBitsets()
	}
	r.apply()
	return nil
}

// Reduced returns a transitively reduced copy of g, leaving g unchanged, or
// a *CycleError[K] if g has a cycle.
func (g *Graph[K]) Reduced() (*Graph[K], error) {
	c := g.Copy()
	if err := c.TransitiveReduction(); err != nil {
		return nil, err
	}
	return c, nil
}

// reducer holds the state of one transitive reduction.
type reducer[K comparable] struct {
	g     *Graph[K]
	order []int32 // ids in topological order
	pos   []int32 // pos[id]: id's index in order
	// Edge u → out[u][j] is edge number first[u]+j; redundant[e] marks the
	// edges to remove.
	first     []int
	redundant []bool
}

func newReducer[K comparable](g *Graph[K], order []int32) *reducer[K] {
	r := &reducer[K]{
		g:         g,
		order:     order,
		pos:       make([]int32, len(g.keys)),
		first:     make([]int, len(g.keys)),
		redundant: make([]bool, g.edges),
	}
	for i, id := range order {
		r.pos[id] = int32(i)
	}
	e := 0
	for id, succ := range g.out {
		r.first[id] = e
		e += len(succ)
	}
	return r
}

// byWindowedSearch marks the redundant edges by the search described on
// TransitiveReduction. It returns false, with redundant in an unspecified
// state, if it gave up because its work passed budget.
func (r *reducer[K]) byWindowedSearch(budget int) bool {
	g := r.g
	work := 0
	mark := make([]int32, len(g.keys)) // mark[id] == stamp: reached from u
	stamp := int32(0)
	var succ, stack []int32 // succ holds indexes into out[u]
	for _, u := range r.order {
		out := g.out[u]
		if len(out) < 2 {
			continue
		}
		succ = succ[:0]
		for j := range out {
			succ = append(succ, int32(j))
		}
		slices.SortFunc(succ, func(a, b int32) int {
			return cmp.Compare(r.pos[out[a]], r.pos[out[b]])
		})
		limit := r.pos[out[succ[len(succ)-1]]]
		stamp++
		for _, j := range succ {
			v := out[j]
			if mark[v] == stamp {
				r.redundant[r.first[u]+int(j)] = true
				continue
			}
			// Mark v's descendants up to limit; marked nodes' descendants
			// are already marked, so the search stops at them.
			stack = append(stack[:0], v)
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				work += 1 + len(g.out[x])
				for _, y := range g.out[x] {
					if r.pos[y] <= limit && mark[y] != stamp {
						mark[y] = stamp
						stack = append(stack, y)
					}
				}
			}
			if work > budget {
				return false
			}
		}
	}
	return true
}

// bitsetCost estimates byBitsets' work in the units byWindowedSearch counts.
func (r *reducer[K]) bitsetCost() int {
	targets := 0
	for _, preds := range r.g.in {
		if len(preds) >= 2 {
			targets++
		}
	}
	passes := targets/(64*bitsetWords) + 1
	return passes * (len(r.order) + r.g.edges)
}

// bitsetWords is how many 64-bit words of targets one bitset pass covers.
const bitsetWords = 4

// bitsetBlock is a set of one pass's targets.
type bitsetBlock [bitsetWords]uint64

// byBitsets marks the redundant edges by reachability bitsets, 64 ×
// bitsetWords targets per pass. An edge u → v is redundant exactly when v
// is a strict descendant of one of u's successors (in a DAG, not of v
// itself), and only a node with two or more predecessors can be such a v.
// Everything is indexed by topological position, and each node's
// successors are sorted by position, so a pass reads memory mostly in order
// and stops at the first successor past its last target.
func (r *reducer[K]) byBitsets() {
	g := r.g
	clear(r.redundant)
	n := len(r.order)
	// Successors by position: succ[off[p]:off[p+1]] for the node at p,
	// each entry pos<<32 | edge number, sorted by position.
	off := make([]int32, n+1)
	tindex := make([]int32, n) // target number by position, or -1
	var targetPos []int32      // position of each target, increasing
	for p, u := range r.order {
		off[p+1] = off[p] + int32(len(g.out[u]))
		tindex[p] = -1
		if len(g.in[u]) >= 2 {
			tindex[p] = int32(len(targetPos))
			targetPos = append(targetPos, int32(p))
		}
	}
	// Two counting passes instead of a sort per node: the edges grouped by
	// their target's position, then dealt out to their sources' lists in
	// that order.
	byTarget := make([]uint64, g.edges) // source position << 32 | edge number
	start := make([]int32, n+1)
	for _, u := range r.order {
		for _, w := range g.out[u] {
			start[r.pos[w]+1]++
		}
	}
	for q := range n {
		start[q+1] += start[q]
	}
	fill := slices.Clone(start[:n])
	for p, u := range r.order {
		for j, w := range g.out[u] {
			q := r.pos[w]
			byTarget[fill[q]] = uint64(p)<<32 | uint64(r.first[u]+j)
			fill[q]++
		}
	}
	succ := make([]uint64, g.edges)
	next := slices.Clone(off[:n])
	for q := range n {
		for _, x := range byTarget[start[q]:start[q+1]] {
			p := x >> 32
			succ[next[p]] = uint64(q)<<32 | x&(1<<32-1)
			next[p]++
		}
	}

	const perPass = 64 * bitsetWords
	below := make([]bitsetBlock, n) // below[p]: this pass's targets p strictly reaches
	for base := int32(0); base < int32(len(targetPos)); base += perPass {
		// Nodes after the pass's last target cannot reach its targets.
		hi := targetPos[min(int(base)+perPass, len(targetPos))-1]
		for p := hi; p >= 0; p-- {
			var via, reach bitsetBlock
			out := succ[off[p]:off[p+1]]
			for _, x := range out {
				q := int32(x >> 32)
				if q > hi {
					break
				}
				b := &below[q]
				for w := range bitsetWords {
					via[w] |= b[w]
				}
				if t := tindex[q] - base; t >= 0 && t < perPass {
					reach[t>>6] |= 1 << (t & 63)
				}
			}
			hit := false
			for w := range bitsetWords {
				below[p][w] = via[w] | reach[w]
				hit = hit || via[w]&reach[w] != 0
			}
			if !hit {
				continue
			}
			for _, x := range out {
				q := int32(x >> 32)
				if q > hi {
					break
				}
				if t := tindex[q] - base; t >= 0 && t < perPass && via[t>>6]&(1<<(t&63)) != 0 {
					r.redundant[uint32(x)] = true
				}
			}
		}
	}
}

// idEdge is an edge between node ids.
type idEdge struct{ from, to int32 }

// groupByTarget returns edges (between ids below n) ordered by target, in
// one counting pass.
func groupByTarget(edges []idEdge, n int) []idEdge {
	start := make([]int, n+1)
	for _, e := range edges {
		start[e.to+1]++
	}
	for i := range n {
		start[i+1] += start[i]
	}
	out := make([]idEdge, len(edges))
	for _, e := range edges {
		out[start[e.to]] = e
		start[e.to]++
	}
	return out
}

// apply removes the marked edges from g's successor and predecessor lists,
// keeping the order of the rest.
func (r *reducer[K]) apply() {
	g := r.g
	var removed []idEdge
	for u, succ := range g.out {
		kept := succ[:0]
		for j, v := range succ {
			if r.redundant[r.first[u]+j] {
				removed = append(removed, idEdge{int32(u), v})
			} else {
				kept = append(kept, v)
			}
		}
		clear(succ[len(kept):])
		g.out[u] = kept
	}
	if len(removed) == 0 {
		return
	}
	g.edges -= len(removed)
	// Group by target (a counting sort), then drop each target's removed
	// predecessors in one pass over its list.
	removed = groupByTarget(removed, len(g.keys))
	drop := make([]bool, len(g.keys))
	for i := 0; i < len(removed); {
		v := removed[i].to
		j := i
		for ; j < len(removed) && removed[j].to == v; j++ {
			drop[removed[j].from] = true
		}
		kept := g.in[v][:0]
		for _, p := range g.in[v] {
			if !drop[p] {
				kept = append(kept, p)
			}
		}
		clear(g.in[v][len(kept):])
		g.in[v] = kept
		for ; i < j; i++ {
			drop[removed[i].from] = false
		}
	}
}
