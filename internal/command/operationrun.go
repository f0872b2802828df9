package command

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/ui"
	"github.com/rig-iac/rig/internal/workdir"
)

// run is the context of an operation over an opened working directory:
// an interrupt cancels it, and a second one, once the session is open,
// asks the session's providers to stop (StopProvider).
type run struct {
	ctx context.Context
	// mu guards forceStop, which the interrupt handler calls.
	mu        sync.Mutex
	forceStop func()
	ends      []func()
}

// startRun starts watching interrupts for an operation; the caller
// defers end.
func (m *Meta) startRun() *run {
	r := &run{}
	ctx, stop := m.interrupts.Notify(func() {
		r.mu.Lock()
		forceStop := r.forceStop
		r.mu.Unlock()
		if forceStop != nil {
			forceStop()
		}
	})
	r.ctx = ctx
	r.ends = append(r.ends, stop)
	return r
}

// open opens the working directory for the operation (Meta.open); end
// closes the session. Its diagnostics are the caller's to show.
func (r *run) open(m *Meta, f *operationFlags, lockOp string) (*workdir.Session, diag.Diagnostics) {
	sess, ds := m.open(r.ctx, f, lockOp)
	r.ends = append(r.ends, sess.Close)
	if !ds.HasErrors() {
		r.mu.Lock()
		r.forceStop = func() { sess.Providers.Stop(context.Background()) }
		r.mu.Unlock()
	}
	return sess, ds
}

// end closes the session and stops watching interrupts, then what the
// operation opened before (its output), last first.
func (r *run) end() {
	for i := len(r.ends) - 1; i >= 0; i-- {
		r.ends[i]()
	}
}

// startOperation starts a plan, apply or drift: it opens the output the
// flags ask for (operationOutput), checks the flags and starts the run.
// It returns false after reporting why the operation cannot start; else
// the caller defers run.end, which closes the output too.
func (m *Meta) startOperation(f *operationFlags) (*ui.OperationView, *run, bool) {
	out, closeOut, ok := m.operationOutput(f)
	if !ok {
		return nil, nil, false
	}
	if ds := checkOperationFlags(f); ds.HasErrors() {
		out.Diagnostics(ds)
		closeOut()
		return nil, nil, false
	}
	if out.JSON != nil {
		// As OpenTofu: what an interrupt does is told in the stream too.
		m.interrupts.SayWith(func(msg string) {
			if out.Human {
				fmt.Fprint(m.Err, msg)
			}
			out.JSON.Log(strings.TrimSpace(msg))
		})
	}
	r := m.startRun()
	r.ends = append([]func(){closeOut}, r.ends...)
	return out, r, true
}
