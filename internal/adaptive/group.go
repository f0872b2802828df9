package adaptive

import (
	"slices"
	"sync"
	"time"
)

// idleAfter is how long after its last call a limiter no longer claims a
// share of its group's ceiling.
const idleAfter = time.Second

// Group shares one ceiling (an explicit -parallelism) among the limiters
// of several APIs, max-min fairly: each busy limiter gets its own limit if
// that fits in an equal share, and what the others leave is shared equally
// among those that want more. A limiter is busy while it has a call in
// flight or waiting (Limiter.Queue), or ended one less than a second ago.
// A Group is safe for concurrent use.
type Group struct {
	max int
	now func() time.Time

	mu      sync.Mutex // guards members
	members []*Limiter
}

// NewGroup returns a group of limiters sharing ceiling max (>= 1), on
// clock now (time.Now when nil).
func NewGroup(max int, now func() time.Time) *Group {
	if now == nil {
		now = time.Now
	}
	return &Group{max: max, now: now}
}

// Add makes l a member and returns its index in Shares.
func (g *Group) Add(l *Limiter) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.members = append(g.members, l)
	return len(g.members) - 1
}

// Shares returns the number of calls each member may have in flight now,
// in the order they were added: its share of the ceiling, or its own
// limit if smaller. An idle member gets its limit too, capped at an equal
// share, so that it can start.
func (g *Group) Shares() []int {
	g.mu.Lock()
	members := slices.Clone(g.members)
	g.mu.Unlock()
	now := g.now()
	want := make([]int, len(members))
	var busy []int
	for i, l := range members {
		l.mu.Lock()
		want[i] = int(l.limit)
		if l.inFlight > 0 || l.waiting > 0 || now.Sub(l.lastEnd) < idleAfter {
			busy = append(busy, i)
		}
		l.mu.Unlock()
	}
	shares := make([]int, len(members))
	// Water-filling over the busy members, smallest want first.
	slices.SortStableFunc(busy, func(a, b int) int { return want[a] - want[b] })
	left := g.max
	for j, i := range busy {
		fair := left / (len(busy) - j)
		shares[i] = max(1, min(want[i], fair))
		left -= shares[i]
	}
	for i := range members {
		if !slices.Contains(busy, i) {
			shares[i] = max(1, min(want[i], g.max/max(1, len(busy)+1)))
		}
	}
	return shares
}
