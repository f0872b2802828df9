package apply

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
)

// StateWriter persists the state. apply calls it from a single goroutine:
// WriteStart with the whole state before the first operation, then
// WriteChanges after every batch of completed operations, waiting for it to
// return before any dependent operation starts. Each must make what it is
// given durable before returning, and must not retain s.
type StateWriter interface {
	// WriteStart persists the whole state the apply starts from; it may
	// keep it as the base of the changes that follow rather than as a
	// snapshot of its own.
	WriteStart(ctx context.Context, s *state.State) error
	// WriteState persists the whole state.
	WriteState(ctx context.Context, s *state.State) error
	// WriteChanges persists the objects named in changed (their content in
	// s, or their removal when s no longer has them) and, when outputs is
	// set, the root outputs; everything else is as last written. An
	// implementation may persist the whole state instead.
	WriteChanges(ctx context.Context, s *state.State, changed []addrs.ObjectAddr, outputs bool) error
}

// recorder is the one goroutine that owns the state during an apply. Workers
// send it mutations; it applies every mutation waiting at that moment, writes
// the state once for the whole batch (group commit), then releases the workers.
type recorder struct {
	st   *state.State
	w    StateWriter
	reqs chan recordReq
	done chan struct{}
	// busy counts the operations executing, those waiting for their
	// records to be durable included; lastWrite is how long the last
	// write took (see linger).
	busy      atomic.Int64
	lastWrite time.Duration
}

type recordReq struct {
	mutate func(*state.State)
	// more, when set, runs after mutate and returns further objects it changed.
	more func(*state.State) []addrs.ObjectAddr
	// changed names the objects mutate changes; outputs is set when it changes the outputs.
	changed []addrs.ObjectAddr
	outputs bool
	// start asks for the whole state to be written, as the state the
	// apply starts from.
	start bool
	reply chan error
}

func newRecorder(st *state.State, w StateWriter) *recorder {
	r := &recorder{st: st, w: w, reqs: make(chan recordReq, 64), done: make(chan struct{})}
	go r.run()
	return r
}

func (r *recorder) run() {
	defer close(r.done)
	for req := range r.reqs {
		batch := []recordReq{req}
	drain:
		for {
			select {
			case more, ok := <-r.reqs:
				if !ok {
					break drain
				}
				batch = append(batch, more)
			default:
				break drain
			}
		}
		batch = r.linger(batch)
		var changed []addrs.ObjectAddr
		outputs, first := false, false
		for _, b := range batch {
			b.mutate(r.st)
			changed = append(changed, b.changed...)
			if b.more != nil {
				changed = append(changed, b.more(r.st)...)
			}
			outputs = outputs || b.outputs
			first = first || b.start
		}
		var werr error
		start := time.Now()
		switch {
		case r.w == nil:
		case first:
			werr = r.w.WriteStart(context.Background(), r.st)
		case len(changed) > 0 || outputs:
			werr = r.w.WriteChanges(context.Background(), r.st, changed, outputs)
		}
		r.lastWrite = time.Since(start)
		var err error
		if werr != nil {
			err = fmt.Errorf("persisting state: %w", werr)
		}
		for _, b := range batch {
			b.reply <- err
		}
	}
}

// record applies mutate, which changes the objects named in changed, to the
// state and returns once the result is durable.
func (r *recorder) record(changed []addrs.ObjectAddr, mutate func(*state.State)) error {
	reply := make(chan error, 1)
	r.reqs <- recordReq{mutate: mutate, changed: changed, reply: reply}
	return <-reply
}

// recordThen is record with a further mutation, more, run on the
// recorder's goroutine after mutate, that returns the objects it changed.
func (r *recorder) recordThen(changed []addrs.ObjectAddr, mutate func(*state.State), more func(*state.State) []addrs.ObjectAddr) error {
	reply := make(chan error, 1)
	r.reqs <- recordReq{mutate: mutate, more: more, changed: changed, reply: reply}
	return <-reply
}

// recordOutputs sets the root outputs and returns once they are durable.
func (r *recorder) recordOutputs(outs map[string]state.OutputValue) error {
	reply := make(chan error, 1)
	r.reqs <- recordReq{mutate: func(s *state.State) { s.Outputs = outs }, outputs: true, reply: reply}
	return <-reply
}

// writeAll persists the whole state, as the state the apply starts from.
func (r *recorder) writeAll() error {
	reply := make(chan error, 1)
	r.reqs <- recordReq{mutate: func(*state.State) {}, start: true, reply: reply}
	return <-reply
}

// close stops the goroutine and returns the state it owned.
func (r *recorder) close() *state.State {
	close(r.reqs)
	<-r.done
	return r.st
}
