package parallel

import (
	"context"
	"time"
)

// Sleep waits for d, or until ctx ends and then returns ctx's error: the
// wait between the attempts of a retried or polled request.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
