package ui

import (
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/plan"
)

// DefaultProgressInterval is how often PhaseProgress reports.
const DefaultProgressInterval = 10 * time.Second

// Phases PhaseProgress reports on.
const (
	PhaseRefresh = "refresh"
	PhasePlan    = "plan"
	PhaseApply   = "apply"
	PhaseDestroy = "destroy"
)

// phaseVerbs are the words of the human lines: "Still refreshing...".
var phaseVerbs = map[string]string{PhaseRefresh: "refreshing", PhasePlan: "planning", PhaseApply: "applying", PhaseDestroy: "destroying"}

// PhaseProgress reports, while a long phase runs, how far it has come:
// every Interval a line "Still refreshing... 2,310/5,000 (41s)" to the
// human output and a "progress" message to the JSON stream. It counts
// what the plan's refresh hooks and the apply's hooks report. A plan's
// refresh phase starts when the planner says how many objects it reads
// back (RefreshesExpected), counts only those — under -refresh=changed,
// those it certainly reads and those it decides to read, never the ones
// it plans as recorded — and becomes the planning phase when they are
// all read; while every object known to be read is read but some are
// undecided, it reports planning. The zero value is not usable: see NewPhaseProgress. A nil
// *PhaseProgress does nothing.
type PhaseProgress struct {
	human io.Writer
	opts  RenderOptions
	json  *JSONView
	// Ticks, when set before Begin, drives the reports instead of a
	// ticker every Interval (tests); Now replaces time.Now.
	Ticks    <-chan time.Time
	Interval time.Duration
	Now      func() time.Time

	mu          sync.Mutex
	phase       string
	done, total int
	start       time.Time
	stop        chan struct{}
	finished    chan struct{}
	onlyRefresh bool
	// maybe holds the objects a -refresh=changed plan has yet to decide
	// to read back or plan as recorded; the refresh phase lasts until it
	// is empty.
	maybe map[addrs.ObjectAddr]bool
}

// NewPhaseProgress returns a reporter writing to human (nil: no lines) and
// json (nil: no messages); nil when both are nil.
func NewPhaseProgress(human io.Writer, opts RenderOptions, json *JSONView) *PhaseProgress {
	if human == nil && json == nil {
		return nil
	}
	return &PhaseProgress{human: human, opts: opts, json: json, Interval: DefaultProgressInterval, Now: time.Now}
}

// Begin starts reporting on phase, of total steps (0 when unknown). A
// refresh phase moves on to planning when its objects are all read, unless
// refreshOnly (a refresh-only plan plans nothing). The function returned
// ends the phase; reports stop then.
func (p *PhaseProgress) Begin(phase string, total int, refreshOnly bool) (end func()) {
	if p == nil {
		return func() {}
	}
	p.mu.Lock()
	p.phase, p.done, p.total, p.start, p.onlyRefresh, p.maybe = phase, 0, total, p.Now(), refreshOnly, nil
	if phase == PhaseRefresh && total == 0 && !refreshOnly {
		p.phase = PhasePlan
	}
	stop, finished := make(chan struct{}), make(chan struct{})
	p.stop, p.finished = stop, finished
	ticks := p.Ticks
	var ticker *time.Ticker
	if ticks == nil {
		ticker = time.NewTicker(p.Interval)
		ticks = ticker.C
	}
	p.mu.Unlock()
	go func() {
		defer close(finished)
		if ticker != nil {
			defer ticker.Stop()
		}
		for {
			select {
			case <-stop:
				return
			case <-ticks:
				p.report()
			}
		}
	}()
	return func() {
		close(stop)
		<-finished
	}
}

// step counts one step of phase done.
func (p *PhaseProgress) step(phase string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.phase != phase {
		return
	}
	p.done++
	if phase == PhaseRefresh {
		// A read the planner did not announce (none is expected) still
		// never counts past the total.
		p.total = max(p.total, p.done)
		p.refreshOver()
	}
}

// refreshOver moves a plan on from refreshing to planning once every
// object it reads back is read and none is left undecided. The caller
// holds p.mu.
func (p *PhaseProgress) refreshOver() {
	if p.phase == PhaseRefresh && p.done >= p.total && len(p.maybe) == 0 && !p.onlyRefresh {
		p.phase, p.done, p.total = PhasePlan, 0, 0
	}
}

// RefreshesExpected starts a plan's refresh phase (plan.RefreshScopeHooks):
// certain objects are read back, and each of maybe is counted once the
// plan reads it back.
func (p *PhaseProgress) RefreshesExpected(certain int, maybe []addrs.ObjectAddr) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase, p.done, p.total = PhaseRefresh, 0, certain
	p.maybe = make(map[addrs.ObjectAddr]bool, len(maybe))
	for _, a := range maybe {
		p.maybe[a] = true
	}
	p.refreshOver()
}

// NotRefreshed notes that the plan leaves an object it might have read
// as recorded (plan.RefreshScopeHooks): it is not counted.
func (p *PhaseProgress) NotRefreshed(addr addrs.ObjectAddr, _ time.Time) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.maybe[addr] {
		delete(p.maybe, addr)
		p.refreshOver()
	}
}

// report writes one progress report of the running phase.
func (p *PhaseProgress) report() {
	p.mu.Lock()
	phase, done, total, elapsed := p.phase, p.done, p.total, p.Now().Sub(p.start).Round(time.Second)
	if phase == PhaseRefresh && done >= total && !p.onlyRefresh {
		// Every object known to be read back is read (or none is yet):
		// the plan is planning objects it may leave as recorded.
		phase, total = PhasePlan, 0
	}
	p.mu.Unlock()
	counts := ""
	if total > 0 {
		counts = " " + thousands(done) + "/" + thousands(total)
	}
	msg := fmt.Sprintf("Still %s...%s (%s)", phaseVerbs[phase], counts, elapsed)
	if p.human != nil {
		fmt.Fprint(p.human, colorize("[reset][bold]"+msg+"[reset]\n", p.opts.Color))
	}
	if p.json != nil {
		fields := map[string]any{"phase": phase, "elapsed_seconds": int(elapsed / time.Second)}
		if total > 0 {
			fields["done"], fields["total"] = done, total
		}
		p.json.emit("info", msg, "progress", map[string]any{"progress": fields})
	}
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// PreRefresh counts in the total an object the plan had yet to decide to
// read back; reads are counted done when they end.
func (p *PhaseProgress) PreRefresh(addr addrs.ObjectAddr, _ cty.Value) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.maybe[addr] {
		delete(p.maybe, addr)
		if p.phase == PhaseRefresh {
			p.total++
		}
	}
}

// PostRefresh counts a recorded object read.
func (p *PhaseProgress) PostRefresh(addrs.ObjectAddr, cty.Value) { p.step(PhaseRefresh) }

// PreApply does nothing: operations are counted when they end.
func (p *PhaseProgress) PreApply(apply.Operation) {}

// Progress does nothing: the phase is reported as a whole.
func (p *PhaseProgress) Progress(apply.Operation, time.Duration) {}

// PostApply counts an operation done, in an apply or a destroy.
func (p *PhaseProgress) PostApply(op apply.Operation, _ apply.Result) {
	if p == nil {
		return
	}
	p.mu.Lock()
	phase := p.phase
	p.mu.Unlock()
	if phase == PhaseApply || phase == PhaseDestroy {
		p.step(phase)
	}
}

// PreProvision does nothing.
func (p *PhaseProgress) PreProvision(apply.Operation, string) {}

// ProvisionOutput does nothing.
func (p *PhaseProgress) ProvisionOutput(apply.Operation, string, string) {}

// PostProvision does nothing.
func (p *PhaseProgress) PostProvision(apply.Operation, string, error) {}

// OperationCount is how many operations applying p reports: one per
// change that is not a no-op or a forget, two per replacement.
func OperationCount(p *plan.Plan) int {
	n := 0
	for _, c := range p.Changes {
		switch {
		case c.Action == plan.NoOp || c.Action == plan.Forget:
		case c.Action.IsReplace():
			n += 2
		default:
			n++
		}
	}
	return n
}
