package dag

import (
	"slices"
	"strconv"
	"strings"
)

// classState tracks concurrency classes during a walk: per class, its
// limit and how many of its nodes run; per node, its signature (the set of
// classes it belongs to, interned); and per signature, the ready nodes held
// back because one of its classes is full, as a heap by insertion order.
// It is owned by the scheduling goroutine.
type classState struct {
	limits  []int
	limit   func(class int) int // nil: limits alone
	running []int
	classes func(id int32) []int

	sigOf      []int32 // per node id: signature index, -1 until computed
	sigIndex   map[string]int32
	sigClasses [][]int
	held       []idHeap // per signature
}

func newClassState[K comparable](g *Graph[K], opts WalkOptions[K]) *classState {
	if opts.Classes == nil || len(opts.ClassLimits) == 0 {
		return nil
	}
	cs := &classState{
		limits:   opts.ClassLimits,
		limit:    opts.ClassLimit,
		running:  make([]int, len(opts.ClassLimits)),
		classes:  func(id int32) []int { return opts.Classes(g.keys[id]) },
		sigOf:    make([]int32, len(g.keys)),
		sigIndex: map[string]int32{},
	}
	for i := range cs.sigOf {
		cs.sigOf[i] = -1
	}
	return cs
}

// sig returns the signature of node id, computing it on first use.
func (cs *classState) sig(id int32) int32 {
	if s := cs.sigOf[id]; s >= 0 {
		return s
	}
	var cls []int
	for _, c := range cs.classes(id) {
		if c >= 0 && c < len(cs.limits) && cs.limits[c] > 0 && !slices.Contains(cls, c) {
			cls = append(cls, c)
		}
	}
	slices.Sort(cls)
	var b strings.Builder
	for _, c := range cls {
		b.WriteString(strconv.Itoa(c))
		b.WriteByte(',')
	}
	key := b.String()
	s, ok := cs.sigIndex[key]
	if !ok {
		s = int32(len(cs.sigClasses))
		cs.sigIndex[key] = s
		cs.sigClasses = append(cs.sigClasses, cls)
		cs.held = append(cs.held, nil)
	}
	cs.sigOf[id] = s
	return s
}

// fits reports whether every class of signature s has a free slot.
func (cs *classState) fits(s int32) bool {
	for _, c := range cs.sigClasses[s] {
		n := cs.limits[c]
		if cs.limit != nil {
			n = min(n, cs.limit(c))
		}
		if cs.running[c] >= n {
			return false
		}
	}
	return true
}

func (cs *classState) start(id int32) {
	for _, c := range cs.sigClasses[cs.sig(id)] {
		cs.running[c]++
	}
}

func (cs *classState) finish(id int32) {
	for _, c := range cs.sigClasses[cs.sig(id)] {
		cs.running[c]--
	}
}

// next removes and returns the earliest-inserted ready node whose classes
// all have a free slot, or -1 if there is none. Ready nodes found blocked
// are held back under their signature until a slot frees, so no slot stays
// idle while a node that could use it is ready.
func (cs *classState) next(ready *idHeap) int32 {
	for len(*ready) > 0 {
		top := (*ready)[0]
		if cs.fits(cs.sig(top)) {
			break
		}
		ready.pop()
		cs.held[cs.sig(top)].push(top)
	}
	best, from := int32(-1), -1
	if len(*ready) > 0 {
		best = (*ready)[0]
	}
	for s, h := range cs.held {
		if len(h) > 0 && (best < 0 || h[0] < best) && cs.fits(int32(s)) {
			best, from = h[0], s
		}
	}
	switch {
	case best < 0:
		return -1
	case from < 0:
		return ready.pop()
	default:
		return cs.held[from].pop()
	}
}

// pending reports whether any node is held back.
func (cs *classState) pending() bool {
	for _, h := range cs.held {
		if len(h) > 0 {
			return true
		}
	}
	return false
}
