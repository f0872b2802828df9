package planner

import (
	"context"
	"errors"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/plan"
)

// errQueryCancelled ends a query that was interrupted, whatever it had
// listed by then.
var errQueryCancelled = diag.Errorf("Operation cancelled", "The query was interrupted: what it had not listed yet is missing from its results.")

// errListFailed tells the walk that a list block failed, so that the blocks
// using its results do not run; its diagnostics say why.
var errListFailed = errors.New("list block failed")

// runLists runs the list blocks of order (a dependency order, from
// listOrder) at once as far as deps allow: a block starts once every
// block it refers to has finished, and its instances run side by side.
// At most opts.Parallelism instances query their providers at once. A
// block that refers to one that failed does not run (the failure is
// reported once, where it happened). Results, diagnostics and the hooks'
// calls come in order's order, instance by instance, whatever the order
// in which the providers answered.
func (p *planner) runLists(order []*config.List, deps map[addrs.Resource][]addrs.Resource, opts QueryOptions) ([]plan.ListResult, diag.Diagnostics) {
	g := dag.NewSized[addrs.Resource](len(order))
	pos := make(map[addrs.Resource]int, len(order))
	for i, l := range order {
		g.Add(l.Addr())
		pos[l.Addr()] = i
	}
	for _, l := range order {
		for _, d := range deps[l.Addr()] {
			if _, ok := pos[d]; ok {
				g.Connect(d, l.Addr())
			}
		}
	}
	seq := newListSequencer(opts.Hooks, len(order))
	pool := parallel.NewPool(p.opts.Parallelism, nil)
	results := make([][]plan.ListResult, len(order))
	diags := make([]diag.Diagnostics, len(order))
	dag.Walk(p.ctx, g, func(_ context.Context, k addrs.Resource) error {
		i := pos[k]
		results[i], diags[i] = p.listBlock(order[i], listRun{pool: pool, seq: seq, block: i, opts: opts})
		if diags[i].HasErrors() {
			return errListFailed
		}
		return nil
	}, dag.WalkOptions[addrs.Resource]{})
	// Blocks that did not run (a dependency failed, or the query was
	// interrupted) have nothing to show.
	seq.finish()

	var out []plan.ListResult
	var ds diag.Diagnostics
	for i := range order {
		out = append(out, results[i]...)
		ds = ds.Append(diags[i])
	}
	// An interrupted query ends with an error, even when nothing it ran
	// failed: what it skipped is missing from its results.
	if p.ctx.Err() != nil {
		ds = ds.Append(errQueryCancelled)
	}
	return out, ds
}

// listRun is what one list block's run shares with the others.
type listRun struct {
	pool *parallel.Pool
	seq  *listSequencer
	// block is the block's position in the run's order.
	block int
	opts  QueryOptions
}

// listEvents records one instance's hook calls so that they can be
// replayed in order; it implements plan.QueryHooks.
type listEvents struct {
	started  bool
	start    plan.ListResult
	input    cty.Value
	finished bool
	result   plan.ListResult
}

func (e *listEvents) PreList(res plan.ListResult, input cty.Value) {
	e.started, e.start, e.input = true, res, input
}

func (e *listEvents) PostList(res plan.ListResult) {
	e.finished, e.result = true, res
}

// listSequencer hands the hook calls of list block instances that run at
// once to hooks in a fixed order: block by block in the run's order, and
// within a block instance by instance, each instance's calls once it and
// every one before it have finished. It is safe for concurrent use; hooks
// is called under its lock, from one goroutine at a time.
type listSequencer struct {
	hooks plan.QueryHooks

	mu sync.Mutex // guards everything below
	// blocks holds, by position, each block's instances; nil until the
	// block's instances are known.
	blocks [][]*listEvents
	// known says which blocks' instances are known.
	known []bool
	// next and nextInstance are the first instance not handed to hooks.
	next, nextInstance int
}

func newListSequencer(hooks plan.QueryHooks, blocks int) *listSequencer {
	return &listSequencer{hooks: hooks, blocks: make([][]*listEvents, blocks), known: make([]bool, blocks)}
}

// expanded records that block has n instances.
func (s *listSequencer) expanded(block, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blocks[block], s.known[block] = make([]*listEvents, n), true
	s.flushLocked()
}

// done records what instance i of block heard.
func (s *listSequencer) done(block, i int, ev *listEvents) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blocks[block][i] = ev
	s.flushLocked()
}

// finish takes the blocks whose instances are still unknown as having
// none (they did not run), and hands what is left to hooks.
func (s *listSequencer) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.known {
		s.known[i] = true
	}
	s.flushLocked()
}

func (s *listSequencer) flushLocked() {
	for s.next < len(s.blocks) && s.known[s.next] {
		insts := s.blocks[s.next]
		for s.nextInstance < len(insts) {
			ev := insts[s.nextInstance]
			if ev == nil {
				return
			}
			if s.hooks != nil && ev.started {
				s.hooks.PreList(ev.start, ev.input)
			}
			if s.hooks != nil && ev.finished {
				s.hooks.PostList(ev.result)
			}
			s.nextInstance++
		}
		s.next, s.nextInstance = s.next+1, 0
	}
}
