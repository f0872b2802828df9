package timeline

import (
	"cmp"
	"slices"
	"time"
)

// sortByStart sorts node indexes by start time, then index.
func sortByStart(r *Record, ids []int) {
	slices.SortFunc(ids, func(a, b int) int {
		return cmp.Or(r.Nodes[a].Start.Compare(r.Nodes[b].Start), cmp.Compare(a, b))
	})
}

// CriticalPath returns the longest chain of dependent operations by the
// time they ran: the nodes (indexes, in order) of the path through the
// operation graph whose operations' durations add up to the most, with
// the operations that did not run and junctions counting nothing (and
// left out of the result). Of paths as long, the one ending at the lowest
// index is taken. It runs in O(N + E).
func (r *Record) CriticalPath() []int {
	n := len(r.Nodes)
	preds := make([][]int, n)
	succs := make([][]int, n)
	indeg := make([]int, n)
	for _, e := range r.Edges {
		if e.From == e.To {
			continue
		}
		preds[e.To] = append(preds[e.To], e.From)
		succs[e.From] = append(succs[e.From], e.To)
		indeg[e.To]++
	}
	best := make([]time.Duration, n)
	prev := make([]int, n)
	queue := make([]int, 0, n)
	for v := range n {
		prev[v] = -1
		if indeg[v] == 0 {
			queue = append(queue, v)
		}
	}
	end, top := -1, time.Duration(-1)
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		// The longest chain into v; of chains as long, the one through the lowest index.
		for _, u := range preds[v] {
			if prev[v] < 0 || best[u] > best[v] || (best[u] == best[v] && u < prev[v]) {
				best[v], prev[v] = best[u], u
			}
		}
		best[v] += r.Nodes[v].Duration()
		if best[v] > top || (best[v] == top && v < end) {
			end, top = v, best[v]
		}
		for _, s := range succs[v] {
			if indeg[s]--; indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	if top <= 0 {
		return nil
	}
	var path []int
	for v := end; v >= 0; v = prev[v] {
		if r.Nodes[v].Ran() {
			path = append(path, v)
		}
	}
	slices.Reverse(path)
	return path
}

// Series is how many operations of one limit class ran at once over time.
type Series struct {
	// Name is "" for every operation (bounded by -parallelism), else a limit's name.
	Name string
	// Limit is the class's bound: -parallelism, or the limit's N.
	Limit int
	// Steps give the count from each At (since the record's Started) until
	// the next step; the last step is 0 operations.
	Steps []Step
	// Peak is the most operations that ran at once.
	Peak int
}

// Step is one step of a Series.
type Step struct {
	At      time.Duration
	Running int
}

// Concurrency returns the series of every operation, then one per limit,
// in the order of Record.Limits. An operation that ends when another
// starts is not counted running alongside it.
func (r *Record) Concurrency() []Series {
	out := []Series{{Name: "", Limit: r.Parallelism}}
	idx := map[string]int{}
	for _, l := range r.Limits {
		idx[l.Name] = len(out)
		out = append(out, Series{Name: l.Name, Limit: l.N})
	}
	type event struct {
		at    time.Duration
		delta int
	}
	events := make([][]event, len(out))
	for _, n := range r.Nodes {
		if !n.Ran() {
			continue
		}
		s, e := n.Start.Sub(r.Started), n.End.Sub(r.Started)
		classes := []int{0}
		for _, name := range n.Limits {
			if i, ok := idx[name]; ok {
				classes = append(classes, i)
			}
		}
		for _, c := range classes {
			events[c] = append(events[c], event{s, +1}, event{e, -1})
		}
	}
	for c := range out {
		ev := events[c]
		slices.SortFunc(ev, func(a, b event) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.delta, b.delta)) })
		running := 0
		for i, e := range ev {
			running += e.delta
			if i+1 < len(ev) && ev[i+1].at == e.at {
				continue // one step per instant
			}
			out[c].Steps = append(out[c].Steps, Step{At: e.at, Running: running})
			out[c].Peak = max(out[c].Peak, running)
		}
	}
	return out
}
