//go:build unix

package interrupt

import (
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is what the handler writes to, read by the test meanwhile.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestFinishReportsInterrupt interrupts a command and then finishes it:
// Finish says it was interrupted, so that the command ends as such; a
// command finished without an interrupt is not.
func TestFinishReportsInterrupt(t *testing.T) {
	t.Run("interrupted", func(t *testing.T) {
		var out lockedBuffer
		exited := make(chan int, 1)
		h := New(&out, time.Hour, func(code int) { exited <- code })
		ctx, stop := h.Notify(nil)
		defer stop()
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		<-ctx.Done()
		if !h.Finish() {
			t.Error("Finish after an interrupt reports no interrupt")
		}
		if !strings.Contains(out.String(), "Interrupt received.") {
			t.Errorf("the interrupt was not announced: %q", out.String())
		}
		select {
		case code := <-exited:
			t.Errorf("exited with %d within the grace period", code)
		default:
		}
	})
	t.Run("not interrupted", func(t *testing.T) {
		var out lockedBuffer
		h := New(&out, time.Hour, func(int) {})
		ctx, stop := h.Notify(nil)
		defer stop()
		if h.Finish() {
			t.Error("Finish reports an interrupt that never came")
		}
		if ctx.Err() != nil || out.String() != "" {
			t.Errorf("context %v, output %q; want neither", ctx.Err(), out.String())
		}
	})
}
