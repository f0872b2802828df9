package dag

// TopoOrder returns every node such that each edge's From comes before its
// To. Among the nodes whose predecessors are all placed, the earliest
// inserted comes next, so the order is the unique smallest topological order
// by insertion order (and, for a graph without edges, the insertion order).
//
// If g has a cycle, TopoOrder returns a nil order and a *CycleError[K].
// It runs in O((N + E) log N). The caller owns the slice.
func (g *Graph[K]) TopoOrder() ([]K, error) {
	ids, ok := g.topoIDs()
	if !ok {
		return nil, g.cycleError()
	}
	return g.keysOf(ids), nil
}

// topoIDs returns the ids in TopoOrder's order, or ok false if g has a
// cycle.
func (g *Graph[K]) topoIDs() (order []int32, ok bool) {
	remaining := g.inDegrees()
	order = make([]int32, 0, len(g.index))
	// Ids pushed in increasing order form a valid min-heap as they are.
	var ready idHeap
	for id, alive := range g.live {
		if alive && remaining[id] == 0 {
			ready = append(ready, int32(id))
		}
	}
	for len(ready) > 0 {
		v := ready.pop()
		order = append(order, v)
		for _, w := range g.out[v] {
			remaining[w]--
			if remaining[w] == 0 {
				ready.push(w)
			}
		}
	}
	return order, len(order) == len(g.index)
}

// anyTopoIDs returns the ids in some topological order, cheaper to find
// than TopoOrder's, or ok false if g has a cycle. It is Kahn's algorithm
// with the order itself as the queue.
func (g *Graph[K]) anyTopoIDs() (order []int32, ok bool) {
	remaining := g.inDegrees()
	order = make([]int32, 0, len(g.index))
	for id, alive := range g.live {
		if alive && remaining[id] == 0 {
			order = append(order, int32(id))
		}
	}
	for head := 0; head < len(order); head++ {
		for _, w := range g.out[order[head]] {
			remaining[w]--
			if remaining[w] == 0 {
				order = append(order, w)
			}
		}
	}
	return order, len(order) == len(g.index)
}

// inDegrees returns each id's number of predecessors (0 for holes).
func (g *Graph[K]) inDegrees() []int32 {
	deg := make([]int32, len(g.keys))
	for id, preds := range g.in {
		deg[id] = int32(len(preds))
	}
	return deg
}

// Waves groups the nodes into waves: wave 0 holds the nodes without
// predecessors, and every other node is in the wave one after its latest
// predecessor's (longest-path layering). Every node's predecessors are thus
// in earlier waves, and the nodes of one wave may run in parallel. Within a
// wave nodes are in insertion order.
//
// If g has a cycle, Waves returns nil and a *CycleError[K]. It runs in
// O(N + E). The caller owns the slices.
func (g *Graph[K]) Waves() ([][]K, error) {
	order, ok := g.anyTopoIDs()
	if !ok {
		return nil, g.cycleError()
	}
	level := make([]int32, len(g.keys))
	depth := int32(0)
	for _, v := range order {
		for _, w := range g.out[v] {
			level[w] = max(level[w], level[v]+1)
		}
		depth = max(depth, level[v]+1)
	}
	size := make([]int, depth)
	for _, v := range order {
		size[level[v]]++
	}
	waves := make([][]K, depth)
	for i := range waves {
		waves[i] = make([]K, 0, size[i])
	}
	for id, alive := range g.live {
		if alive {
			waves[level[id]] = append(waves[level[id]], g.keys[id])
		}
	}
	return waves, nil
}

// idHeap is a binary min-heap of ids. It is hand-written rather than built
// on container/heap to avoid interface calls on hot paths.
type idHeap []int32

func (h *idHeap) push(id int32) {
	s := append(*h, id)
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p] <= s[i] {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
	*h = s
}

func (h *idHeap) pop() int32 {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		c := l
		if r := l + 1; r < len(s) && s[r] < s[l] {
			c = r
		}
		if s[i] <= s[c] {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
	*h = s
	return top
}
