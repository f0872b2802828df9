package apply

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
)

// batchWriter records the objects each WriteChanges was given.
type batchWriter struct {
	mu      sync.Mutex
	batches [][]addrs.ObjectAddr
}

func (w *batchWriter) WriteState(context.Context, *state.State) error { return nil }

func (w *batchWriter) WriteStart(context.Context, *state.State) error { return nil }

func (w *batchWriter) WriteChanges(_ context.Context, _ *state.State, changed []addrs.ObjectAddr, _ bool) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.batches = append(w.batches, slices.Clone(changed))
	return nil
}

func objectNamed(name string) addrs.ObjectAddr {
	return addrs.ObjectAddr{Instance: addrs.Resource{Mode: addrs.Managed, Type: "t", Name: name}.Absolute(addrs.RootModule).Instance(addrs.NoKey)}
}

// recordWithin records the object named name as an operation would, and
// fails the test unless the record is durable within a minute.
func recordWithin(t *testing.T, r *recorder, name string) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- r.record([]addrs.ObjectAddr{objectNamed(name)}, func(*state.State) {}) }()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(time.Minute):
		t.Errorf("the record of %s is still not durable", name)
	}
}

// TestRecorderLingers: the records of operations executing together are
// made durable by one write; a record whose operation is the only one
// executing is written at once, however long writes take; and a batch
// held open for an operation that does not record goes out after about
// as long as the last write took.
func TestRecorderLingers(t *testing.T) {
	linger := maxLinger
	maxLinger = time.Hour
	defer func() { maxLinger = linger }()

	t.Run("operations executing together", func(t *testing.T) {
		w := &batchWriter{}
		r := newRecorder(state.New(), w)
		defer r.close()
		r.lastWrite = time.Hour // set before the first request: read after it
		var wg sync.WaitGroup
		for _, name := range []string{"a", "b", "c"} {
			done := r.executing()
			wg.Go(func() {
				defer done()
				recordWithin(t, r, name)
			})
		}
		wg.Wait()
		if len(w.batches) != 1 || len(w.batches[0]) != 3 {
			t.Errorf("written in batches %v, want one batch of the three", w.batches)
		}
	})

	t.Run("the only operation executing", func(t *testing.T) {
		w := &batchWriter{}
		r := newRecorder(state.New(), w)
		defer r.close()
		r.lastWrite = time.Hour
		done := r.executing()
		recordWithin(t, r, "a")
		done()
		if len(w.batches) != 1 {
			t.Errorf("written in batches %v, want one", w.batches)
		}
	})

	t.Run("an operation that does not record", func(t *testing.T) {
		w := &batchWriter{}
		r := newRecorder(state.New(), w)
		defer r.close()
		r.lastWrite = 10 * time.Millisecond
		slow := r.executing()
		defer slow()
		done := r.executing()
		recordWithin(t, r, "a")
		done()
		if len(w.batches) != 1 {
			t.Errorf("written in batches %v, want one", w.batches)
		}
	})
}
