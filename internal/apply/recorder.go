package apply

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/state"
)

// StateWriter persists a snapshot of the state. apply calls it from a single
// goroutine after every batch of completed operations and waits for it to
// return before any dependent operation starts, so an implementation must
// make the snapshot durable before returning, and must not retain s.
type StateWriter interface {
	WriteState(ctx context.Context, s *state.State) error
}

// recorder is the one goroutine that owns the state during an apply. Workers
// send it mutations; it applies every mutation waiting at that moment, writes
// the state once for the whole batch (group commit), then releases the workers.
type recorder struct {
	st   *state.State
	w    StateWriter
	reqs chan recordReq
	done chan struct{}
}

type recordReq struct {
	mutate func(*state.State)
	// read, when set, runs against the state without persisting.
	read  bool
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
		dirty := false
		for _, b := range batch {
			b.mutate(r.st)
			dirty = dirty || !b.read
		}
		var err error
		if dirty && r.w != nil {
			if werr := r.w.WriteState(context.Background(), r.st); werr != nil {
				err = fmt.Errorf("persisting state: %w", werr)
			}
		}
		for _, b := range batch {
			b.reply <- err
		}
	}
}

// record applies mutate to the state and returns once the result is durable.
func (r *recorder) record(mutate func(*state.State)) error {
	reply := make(chan error, 1)
	r.reqs <- recordReq{mutate: mutate, reply: reply}
	return <-reply
}

// view runs fn against the state without persisting anything.
func (r *recorder) view(fn func(*state.State)) {
	reply := make(chan error, 1)
	r.reqs <- recordReq{mutate: fn, read: true, reply: reply}
	<-reply
}

// close stops the goroutine and returns the state it owned.
func (r *recorder) close() *state.State {
	close(r.reqs)
	<-r.done
	return r.st
}
