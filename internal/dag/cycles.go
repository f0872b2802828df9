package dag

import (
	"fmt"
	"slices"
	"strings"
)

// Cycles returns one cycle for each strongly connected component of g that
// contains a cycle: every component of two or more nodes, and every node with
// a self-edge. It returns nil if g is acyclic.
//
// Each cycle is a path [a, b, c] meaning a → b → c → a, where every
// consecutive pair and the pair (last, first) are edges of g, and no node
// repeats. A self-edge is the path [a]. The path starts at the component's
// earliest-inserted node and is a shortest cycle through it; cycles are
// ordered by their first node's insertion order.
//
// Finding the components is iterative (no recursion, so a chain of a million
// nodes is fine) and O(N + E); so is extracting the paths.
func (g *Graph[K]) Cycles() [][]K {
	var cycles [][]K
	for _, path := range g.cycleIDs() {
		cycles = append(cycles, g.keysOf(path))
	}
	return cycles
}

// cycleIDs is Cycles over ids.
func (g *Graph[K]) cycleIDs() [][]int32 {
	comp, roots := g.components()
	if len(roots) == 0 {
		return nil
	}
	slices.Sort(roots)

	n := len(g.keys)
	parent := make([]int32, n)
	seen := make([]bool, n)
	var queue []int32
	cycles := make([][]int32, 0, len(roots))
	for _, start := range roots {
		cycles = append(cycles, g.shortestCycle(start, comp, parent, seen, queue[:0]))
	}
	return cycles
}

// components finds the strongly connected components of g with Tarjan's
// algorithm, run iteratively. It returns each node's component number
// (comp[id], -1 for holes) and, for each component that contains a cycle,
// its earliest-inserted node.
func (g *Graph[K]) components() (comp []int32, cyclic []int32) {
	n := len(g.keys)
	const unvisited = -1
	order := make([]int32, n) // discovery index, or unvisited
	low := make([]int32, n)
	onStack := make([]bool, n)
	comp = make([]int32, n)
	for i := range order {
		order[i] = unvisited
		comp[i] = -1
	}
	type frame struct {
		v    int32
		next int32 // index into out[v] of the next edge to follow
	}
	var (
		stack   []int32 // Tarjan's stack of nodes in open components
		frames  []frame // the explicit call stack replacing recursion
		counter int32
		ncomp   int32
	)
	visit := func(v int32) {
		order[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		onStack[v] = true
		frames = append(frames, frame{v: v})
	}
	for root := range g.keys {
		if !g.live[root] || order[root] != unvisited {
			continue
		}
		visit(int32(root))
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			v := f.v
			if int(f.next) < len(g.out[v]) {
				w := g.out[v][f.next]
				f.next++
				if order[w] == unvisited {
					visit(w) // f is invalid from here on
				} else if onStack[w] {
					low[v] = min(low[v], order[w])
				}
				continue
			}
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				p := frames[len(frames)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] != order[v] {
				continue
			}
			// v roots a component: pop it.
			first, size := v, 0
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = ncomp
				first = min(first, w)
				size++
				if w == v {
					break
				}
			}
			if size > 1 || g.hasEdge(v, v) {
				cyclic = append(cyclic, first)
			}
			ncomp++
		}
	}
	return comp, cyclic
}

// shortestCycle returns a shortest cycle through start that stays inside
// start's component, found by breadth-first search from start back to
// itself. parent, seen and queue are scratch space shared across calls;
// seen is only ever set for nodes of start's component, and components are
// disjoint, so it needs no reset.
func (g *Graph[K]) shortestCycle(start int32, comp, parent []int32, seen []bool, queue []int32) []int32 {
	c := comp[start]
	queue = append(queue, start)
	seen[start] = true
	for head := 0; head < len(queue); head++ {
		v := queue[head]
		for _, w := range g.out[v] {
			if w == start {
				// Walk parents back from v to start.
				var path []int32
				for x := v; x != start; x = parent[x] {
					path = append(path, x)
				}
				path = append(path, start)
				slices.Reverse(path)
				return path
			}
			if comp[w] != c || seen[w] {
				continue
			}
			seen[w] = true
			parent[w] = v
			queue = append(queue, w)
		}
	}
	panic("dag: component marked cyclic has no cycle through its first node")
}

// CycleError reports that an operation needing an acyclic graph was given a
// graph with cycles.
type CycleError[K comparable] struct {
	// Cycles holds one cycle per cyclic strongly connected component, as
	// returned by Graph.Cycles. It is never empty.
	Cycles [][]K
}

// Error lists the cycles, each as "a -> b -> a", with keys printed by
// fmt's %v.
func (e *CycleError[K]) Error() string {
	var b strings.Builder
	if len(e.Cycles) == 1 {
		b.WriteString("graph has a cycle: ")
	} else {
		fmt.Fprintf(&b, "graph has %d cycles: ", len(e.Cycles))
	}
	for i, c := range e.Cycles {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(FormatCycle(c, nil, " -> "))
	}
	return b.String()
}

// FormatCycle renders a cycle path as returned by Cycles, closing it by
// repeating the first node: [a, b] becomes "a -> b -> a" with sep " -> ".
// name renders a key; nil means fmt's %v. An empty path renders as "".
func FormatCycle[K comparable](path []K, name func(K) string, sep string) string {
	if len(path) == 0 {
		return ""
	}
	if name == nil {
		name = func(k K) string { return fmt.Sprint(k) }
	}
	var b strings.Builder
	for _, k := range path {
		b.WriteString(name(k))
		b.WriteString(sep)
	}
	b.WriteString(name(path[0]))
	return b.String()
}

// cycleError builds the CycleError for g, which must have a cycle.
func (g *Graph[K]) cycleError() *CycleError[K] {
	return &CycleError[K]{Cycles: g.Cycles()}
}
