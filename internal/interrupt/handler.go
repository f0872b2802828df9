package interrupt

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultGrace is how long rig, interrupted outside any writing phase,
// lets the command finish on its own before it stops it.
const DefaultGrace = 2 * time.Second

// Handler is the interrupt handling of one command. Its zero value is
// not usable: make it with New.
type Handler struct {
	err   io.Writer
	grace time.Duration
	// exit ends the process: os.Exit unless tests replace it.
	exit func(code int)

	// writing counts the phases under way that change state or remote
	// objects (an apply's walk and final write, an import's write): while
	// one is, an interrupt stops rig gracefully; otherwise rig stops within
	// grace of the first interrupt, whatever it is computing.
	writing atomic.Int32
	// mu guards atExit, the cleanups (unlocking, stopping providers) run
	// before rig exits on an interrupt, exiting, received (an interrupt
	// was received) and finished (Finish was called: later interrupts are
	// not received).
	mu       sync.Mutex
	atExit   []func()
	exiting  bool
	received bool
	finished bool
	// sayFunc, when set (SayWith), tells what happens instead of err.
	sayFunc func(message string)
}

// New returns the handler of a command that tells people what happens on
// err, stopping grace after the first interrupt outside a writing phase
// by calling exit (nil: os.Exit).
func New(err io.Writer, grace time.Duration, exit func(code int)) *Handler {
	if exit == nil {
		exit = os.Exit
	}
	return &Handler{err: err, grace: grace, exit: exit}
}

// BeginWriting marks a phase that changes state or remote objects, until
// the returned function is called: an interrupt then stops rig only
// gracefully.
func (h *Handler) BeginWriting() (end func()) {
	h.writing.Add(1)
	var once sync.Once
	return func() { once.Do(func() { h.writing.Add(-1) }) }
}

// OnExit registers cleanup, run (once) if rig exits on an interrupt:
// releasing the state lock, stopping providers.
func (h *Handler) OnExit(cleanup func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.atExit = append(h.atExit, cleanup)
}

// exitInterrupted runs the cleanups and exits with status 1, unless a
// writing phase began meanwhile.
func (h *Handler) exitInterrupted() {
	h.mu.Lock()
	if h.writing.Load() > 0 || h.exiting {
		h.mu.Unlock()
		return
	}
	h.exiting = true
	cleanups := h.atExit
	h.atExit = nil
	h.mu.Unlock()
	h.say("\nStopped: the command was interrupted before it changed anything.\n")
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	h.exit(1)
}

// Notify returns a context cancelled on the first SIGINT/SIGTERM; a
// second signal calls onForce (which should stop providers). The returned
// function stops listening.
func (h *Handler) Notify(onForce func()) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, sigterm)
	done := make(chan struct{})
	go func() {
		count := 0
		for {
			select {
			case <-done:
				return
			case <-sigs:
				if !h.receive() {
					continue
				}
				count++
				if count == 1 {
					h.say("\nInterrupt received.\nPlease wait for rig to exit or data loss may occur.\nGracefully shutting down...\n")
					cancel()
					// Outside a writing phase nothing is lost by stopping:
					// a computation that does not notice the cancellation
					// (parsing, evaluating, rendering) is cut short.
					go func() {
						select {
						case <-done:
						case <-time.After(h.grace):
							h.exitInterrupted()
						}
					}()
				} else {
					h.say("\nTwo interrupts received. Stopping running operations now; state is saved.\n")
					if onForce != nil {
						onForce()
					}
				}
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// SayWith makes the handler tell what happens through say (a command's
// -json stream, as log messages) instead of its writer.
func (h *Handler) SayWith(say func(message string)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sayFunc = say
}

// say tells msg through SayWith's function, or writes it.
func (h *Handler) say(msg string) {
	h.mu.Lock()
	say := h.sayFunc
	h.mu.Unlock()
	if say != nil {
		say(msg)
		return
	}
	fmt.Fprint(h.err, msg)
}

// receive notes an interrupt Notify received, unless the command has
// finished (Finish): it reports whether to act on it.
func (h *Handler) receive() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.finished {
		return false
	}
	h.received = true
	return true
}

// Finish marks the end of the command's interruptible work, once it has
// decided its outcome but before it keeps that outcome (saves a plan,
// exits 0), and reports whether an interrupt was received before: the
// command then ends as interrupted. An interrupt that comes later is not
// received (nor announced): the command is ending as it decided.
func (h *Handler) Finish() (interrupted bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.finished = true
	return h.received
}

// Twice closes stop on the first interrupt (or SIGTERM) and cancel on the
// second, as rig test stops its suite; the returned function stops
// listening.
func Twice(stop, cancel chan struct{}) func() {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, sigterm)
	done := make(chan struct{})
	go func() {
		count := 0
		for {
			select {
			case <-done:
				return
			case <-sigs:
				count++
				switch count {
				case 1:
					close(stop)
				case 2:
					close(cancel)
					return
				}
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
