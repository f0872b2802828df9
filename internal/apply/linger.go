package apply

import (
	"time"
)

// maxLinger bounds how long the recorder holds a batch open for the
// records of operations still executing.
var maxLinger = 20 * time.Millisecond

// linger lets the records of the operations still executing join batch
// before it is written, so that one write (and one sync) makes a whole
// wave of fast operations durable instead of one write for every few.
// It returns as soon as every executing operation waits in the batch,
// and at the latest after as long as the last write took (at most
// maxLinger): a record then waits at most about two writes, as it would
// behind a write already under way, and an operation that runs for
// long (a slow provider) holds nothing up beyond that. Without other
// operations executing, or without a writer, it returns at once.
func (r *recorder) linger(batch []recordReq) []recordReq {
	limit := min(r.lastWrite, maxLinger)
	if r.w == nil || limit <= 0 || r.busy.Load() <= int64(len(batch)) {
		return batch
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for r.busy.Load() > int64(len(batch)) {
		select {
		case more, ok := <-r.reqs:
			if !ok {
				return batch
			}
			batch = append(batch, more)
		case <-timer.C:
			return batch
		}
	}
	return batch
}

// executing counts an operation as executing while it runs (see linger).
func (r *recorder) executing() (done func()) {
	r.busy.Add(1)
	return func() { r.busy.Add(-1) }
}
