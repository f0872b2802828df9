package dag

import (
	"context"
	"errors"
	"iter"
	"maps"
	"slices"
	"sync"
)

// WalkOptions configures Walk.
type WalkOptions[K comparable] struct {
	// Limit caps how many calls of fn run at once. Zero or negative means
	// no cap.
	Limit int
	// Classes, when set, returns the concurrency classes a node belongs to,
	// as indexes into ClassLimits. A node starts only while every one of its
	// classes runs fewer nodes than its limit (a limit of zero or less means
	// none); a ready node that can start is never kept waiting behind one
	// that cannot.
	Classes func(k K) []int
	// ClassLimits holds each class's limit.
	ClassLimits []int
	// ClassLimit, when set, gives a class's limit at the moment a node
	// may start, for limits that change during the walk (adaptive ones);
	// it must change only while a node of the walk runs (it is read
	// again whenever one finishes), and is capped by ClassLimits, whose
	// zero entries still mean no limit. It is called from the scheduling
	// goroutine only.
	ClassLimit func(class int) int
	// ReleasedLimit caps how many calls that gave up their share with
	// Release may be unfinished at once: while that many are, no call
	// starts, so that work waiting on something slow does not pile up
	// without bound. Calls already running may still release, so up to
	// ReleasedLimit+Limit-1 may be. Zero or negative means no cap.
	ReleasedLimit int
}

// Outcome says what became of one node in a Walk.
type Outcome uint8

const (
	// Done: fn ran and returned nil.
	Done Outcome = iota + 1
	// Failed: fn ran and returned an error.
	Failed
	// SkippedDependencyFailed: fn did not run because a node this one
	// depends on, directly or not, failed.
	SkippedDependencyFailed
	// NotRunCancelled: fn did not run because the context was cancelled
	// first, and no node this one depends on failed.
	NotRunCancelled
)

// String returns a short lower-case description, such as "done".
func (o Outcome) String() string {
	switch o {
	case Done:
		return "done"
	case Failed:
		return "failed"
	case SkippedDependencyFailed:
		return "skipped: dependency failed"
	case NotRunCancelled:
		return "not run: cancelled"
	default:
		return "invalid outcome"
	}
}

// NodeResult is what became of one node in a Walk.
type NodeResult[K comparable] struct {
	Outcome Outcome
	// Err is fn's error when Outcome is Failed, and nil otherwise.
	Err error
	// Cause, when Outcome is SkippedDependencyFailed, is the failed node
	// that kept this one from running: of all the failed nodes it depends
	// on, the earliest inserted. Otherwise it is the zero K.
	Cause K
}

// WalkResult is the outcome of a Walk: one NodeResult per node of the
// walked graph, or, if the walk was refused, none and an error. It does not
// share memory with the graph, which may change afterwards.
type WalkResult[K comparable] struct {
	keys    []K             // by id, as in the walked graph
	results []NodeResult[K] // by id; Outcome 0 marks a hole
	index   map[K]int32
	refused error // a *CycleError[K] if the graph had a cycle
	cancel  error // the context's error if any node was NotRunCancelled
}

// Get returns k's result, and false if k was not a node of the walked graph
// or the walk was refused.
func (r WalkResult[K]) Get(k K) (NodeResult[K], bool) {
	id, ok := r.index[k]
	if !ok {
		return NodeResult[K]{}, false
	}
	return r.results[id], true
}

// All yields every node and its result in the graph's insertion order.
func (r WalkResult[K]) All() iter.Seq2[K, NodeResult[K]] {
	return func(yield func(K, NodeResult[K]) bool) {
		for id, res := range r.results {
			if res.Outcome != 0 && !yield(r.keys[id], res) {
				return
			}
		}
	}
}

// Len returns the number of nodes with a result.
func (r WalkResult[K]) Len() int {
	return len(r.index)
}

// Count returns the number of nodes whose outcome is o.
func (r WalkResult[K]) Count(o Outcome) int {
	n := 0
	for _, res := range r.results {
		if res.Outcome == o {
			n++
		}
	}
	return n
}

// Err returns nil if every node is Done. Otherwise it joins, in this order:
// the *CycleError[K] if the walk was refused; the error of each Failed node,
// as fn returned it, in insertion order; and the context's cause if any
// node was NotRunCancelled. Skipped nodes add nothing: their cause is
// already there.
func (r WalkResult[K]) Err() error {
	if r.refused != nil {
		return r.refused
	}
	var errs []error
	for _, res := range r.results {
		if res.Outcome == Failed {
			errs = append(errs, res.Err)
		}
	}
	if r.cancel != nil {
		errs = append(errs, r.cancel)
	}
	return errors.Join(errs...)
}

// Walk calls fn once for each node of g, in parallel as far as the edges and
// opts.Limit allow. A node starts only after all of its predecessors have
// finished with fn returning nil. Among the nodes ready to start, the
// earliest inserted starts first, so with Limit 1 the nodes run in
// TopoOrder.
//
// When fn fails for a node, no node that depends on it, directly or not, is
// started; they are SkippedDependencyFailed. Nodes that do not depend on it
// still run. When ctx is done, no further node starts: calls already running
// are waited for (fn receives ctx and may return early), and the nodes not
// started are NotRunCancelled, or SkippedDependencyFailed if something they
// depend on failed. Walk returns only after every call of fn has returned.
//
// If g has a cycle, Walk calls fn for no node and the result's Err is a
// *CycleError[K].
//
// fn is called from several goroutines at once (unless Limit is 1) and must
// be safe for that. It may read g but nothing may change g until Walk
// returns. A panic in fn is not recovered.
//
// One goroutine schedules: it alone owns the counts of unfinished
// predecessors and the ready queue; a pool of workers runs fn. fn may call
// Release to give up its node's share of the limits before it returns.
func Walk[K comparable](ctx context.Context, g *Graph[K], fn func(ctx context.Context, k K) error, opts WalkOptions[K]) WalkResult[K] {
	order, ok := g.anyTopoIDs()
	if !ok {
		return WalkResult[K]{refused: g.cycleError()}
	}
	w := &walker[K]{
		classes:   newClassState(g, opts),
		g:         g,
		fn:        fn,
		ctxDone:   ctx.Done(),
		remaining: g.inDegrees(),
		results:   make([]NodeResult[K], len(g.keys)),
		finished:  make(chan finished, 64),

		releasedLimit: opts.ReleasedLimit,
	}
	for id, alive := range g.live {
		if alive && w.remaining[id] == 0 {
			w.ready = append(w.ready, int32(id)) // increasing: already a heap
		}
	}
	w.run(ctx, opts.Limit)

	res := WalkResult[K]{
		keys:    slices.Clone(g.keys),
		results: w.results,
		index:   maps.Clone(g.index),
	}
	if w.classifyUnstarted(order) {
		res.cancel = context.Cause(ctx)
	}
	return res
}

// walker is the state of one Walk. g, fn and ctxDone are only read.
// remaining, ready and results are owned by the scheduling goroutine (the
// one running Walk); the goroutines running fn reach it only through
// finished.
type walker[K comparable] struct {
	g         *Graph[K]
	fn        func(context.Context, K) error
	ctxDone   <-chan struct{}
	remaining []int32 // per id: predecessors not yet Done
	ready     idHeap  // ids whose predecessors are all Done, not yet started
	results   []NodeResult[K]
	finished  chan finished
	classes   *classState // nil without class limits
	// releasedLimit is WalkOptions.ReleasedLimit.
	releasedLimit int
}

// finished reports one dispatched node back to the scheduler: fn returned
// (or was not called), or fn released the node's share of the limits.
type finished struct {
	id       int32
	ran      bool // false if the worker found ctx done and did not call fn
	err      error
	released bool // fn called Release; fn has not returned yet
}

// Release, called by fn during a Walk with the context fn received, frees
// the node's share of the walk's limits (Limit and class limits) before fn
// returns, so that another ready node may start in its place. The node is
// not finished: its successors still start only once fn returns nil. fn
// calls it when what remains is waiting rather than work (such as waiting
// for its result to be made durable). Calls after the first, and calls with
// any other context, do nothing.
func Release(ctx context.Context) {
	if r, ok := ctx.Value(releaseKey{}).(*releaser); ok && !r.done {
		r.done = true
		r.finished <- finished{id: r.id, released: true}
	}
}

type releaseKey struct{}

// releaser is what Release needs of one call of fn; fn's goroutine alone
// uses it.
type releaser struct {
	id       int32
	finished chan<- finished
	done     bool
}

// cancelled reports whether ctx is done, without blocking.
func (w *walker[K]) cancelled() bool {
	select {
	case <-w.ctxDone:
		return true
	default:
		return false
	}
}

// call runs fn for id unless ctx is already done, and reports back.
func (w *walker[K]) call(ctx context.Context, id int32) {
	if w.cancelled() {
		w.finished <- finished{id: id}
		return
	}
	r := &releaser{id: id, finished: w.finished}
	err := w.fn(context.WithValue(ctx, releaseKey{}, r), w.g.keys[id])
	w.finished <- finished{id: id, ran: true, err: err, released: r.done}
}

// run schedules the walk until nothing is running and nothing more may
// start. running counts the calls that hold a share of the limits, calls
// those whose fn has not returned. Calls run on a pool of workers that
// grows whenever no worker is idle (a call that released its share still
// occupies its worker); workers are reused because a goroutine's stack,
// once grown by a deep fn, would otherwise be grown again for every node.
func (w *walker[K]) run(ctx context.Context, limit int) {
	jobs := make(chan int32) // unbuffered: a send succeeds only if a worker is idle
	var workers sync.WaitGroup
	work := func(id int32) {
		for ok := true; ok; id, ok = <-jobs {
			w.call(ctx, id)
		}
	}
	defer func() {
		close(jobs)
		workers.Wait()
	}()

	running, calls, released := 0, 0, 0
	// free gives back a node's share of the limits.
	free := func(id int32) {
		running--
		if w.classes != nil {
			w.classes.finish(id)
		}
	}
	stopped := false // ctx was seen done: start nothing more
	for {
		for !stopped && (len(w.ready) > 0 || w.classes != nil && w.classes.pending()) && (limit <= 0 || running < limit) &&
			(w.releasedLimit <= 0 || released < w.releasedLimit) {
			if w.cancelled() {
				stopped = true
				break
			}
			var id int32
			if w.classes != nil {
				if id = w.classes.next(&w.ready); id < 0 {
					break
				}
				w.classes.start(id)
			} else {
				id = w.ready.pop()
			}
			running++
			calls++
			select {
			case jobs <- id:
			default:
				workers.Go(func() { work(id) })
			}
		}
		if calls == 0 {
			return
		}
		// Wait for one report, then take any others already sent, so that
		// one round of dispatching follows a burst of completions.
		for f, more := <-w.finished, true; more; {
			switch {
			case f.released && !f.ran: // fn gave up its share and goes on
				free(f.id)
				released++
			case f.released: // fn returned after giving up its share
				w.record(f, &stopped)
				calls--
				released--
			default:
				w.record(f, &stopped)
				calls--
				free(f.id)
			}
			select {
			case f = <-w.finished:
			default:
				more = false
			}
		}
	}
}

// record takes in one report: it stores the outcome of a node that ran and
// readies the successors of a Done one. A node handed out but not run
// means ctx is done, so it sets *stopped; the node keeps no result and is
// classified afterwards.
func (w *walker[K]) record(f finished, stopped *bool) {
	switch {
	case !f.ran:
		*stopped = true
	case f.err != nil:
		w.results[f.id] = NodeResult[K]{Outcome: Failed, Err: f.err}
	default:
		w.results[f.id] = NodeResult[K]{Outcome: Done}
		for _, s := range w.g.out[f.id] {
			w.remaining[s]--
			if w.remaining[s] == 0 {
				w.ready.push(s)
			}
		}
	}
}

// classifyUnstarted gives every node that did not run its outcome: skipped
// below the earliest-inserted failed node it depends on, or cancelled if it
// depends on none. order is g's topological order. It reports whether any
// node was cancelled.
func (w *walker[K]) classifyUnstarted(order []int32) bool {
	g := w.g
	const none = -1
	var cause []int32 // per id: earliest failed ancestor, for unstarted nodes
	anyCancelled := false
	for _, v := range order {
		if w.results[v].Outcome != 0 {
			continue // ran
		}
		if cause == nil {
			cause = make([]int32, len(g.keys))
		}
		c := int32(none)
		for _, p := range g.in[v] {
			pc := int32(none)
			switch w.results[p].Outcome {
			case Failed:
				pc = p
			case SkippedDependencyFailed:
				pc = cause[p]
			}
			if pc != none && (c == none || pc < c) {
				c = pc
			}
		}
		cause[v] = c
		if c == none {
			w.results[v] = NodeResult[K]{Outcome: NotRunCancelled}
			anyCancelled = true
		} else {
			w.results[v] = NodeResult[K]{Outcome: SkippedDependencyFailed, Cause: g.keys[c]}
		}
	}
	return anyCancelled
}
