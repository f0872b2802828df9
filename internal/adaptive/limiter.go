package adaptive

import (
	"math"
	"slices"
	"sync"
	"time"
)

// Options configures a Limiter. Max is required; the rest have defaults.
type Options struct {
	// Max is the ceiling the limit never exceeds: an explicit
	// -parallelism or -limit, else the default ceiling of the calls.
	Max int
	// Min is the floor the limit never goes below (default 1).
	Min int
	// Initial is the first limit (default 10, OpenTofu's parallelism),
	// within Min and Max.
	Initial int
	// Tolerance is how far the mean latency of a window of calls may rise
	// above the baseline before the limit is cut (default 1.2: 20 %).
	Tolerance float64
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Trace makes the limiter keep every change of its calls in flight
	// and of its limit (see Trace).
	Trace bool
	// OnChange, if set, is called with the new limit each time the
	// integer limit changes, with no lock held, from the goroutine ending
	// the call that changed it.
	OnChange func(limit int)
}

const (
	defaultInitial   = 10
	defaultTolerance = 1.2
	// A window whose latency is too high cuts the limit by a factor
	// between minCut and maxCut; a throttling error by throttleBackoff.
	minCut, maxCut  = 0.9, 0.5
	throttleBackoff = 0.5
	// minWindow is the fewest calls a window judges by; a kind's mean
	// latency in a window counts for its baseline from minKindSamples.
	minWindow      = 32
	minKindSamples = 16
	// baseWindows is how many windows' means the baseline is the least
	// of: an API that becomes slower for good is the new normal after
	// that many windows.
	baseWindows = 32
	// stuck is how many times its baseline a call still in flight must
	// have lasted to count.
	stuck = 1.5
	// maxRatio bounds what one call counts for: a call retried for
	// seconds must not weigh as much as dozens of slow ones.
	maxRatio = 3.0
)

// Limiter decides how many calls to one API may run at once. Calls are
// grouped in kinds (the provider's RPC: a read and a create take different
// times), each with a baseline latency: the least of its mean latencies in
// the last 32 windows (with at least 16 calls of the kind). A window ends
// after max(32, limit) calls; it is judged by the mean of its calls'
// latencies, each divided by the baseline of its kind and counted as at
// most 3 (a call retried for seconds weighs as a slow call, not as dozens):
//
//   - above Tolerance, the API slows down under this load (calls queue, or
//     are throttled and retried inside the provider, which shows as
//     latency): the limit is multiplied by Tolerance/mean, between 0.5 and
//     0.9 (at a capped throughput latency grows with concurrency);
//   - otherwise, if at least half the limit was in use at some point of
//     the window (a limit nobody uses proves nothing), the limit doubles
//     until it is first cut or the mean passes halfway to Tolerance, then
//     grows by one per window.
//
// A call that failed with a throttling error halves the limit at once.
// Calls still in flight for more than 1.5 times their baseline count in
// the mean with their age (the calls a window sees first are the fast ones;
// the throttled ones end last). Calls that started before a cut are not
// judged: they ran at the old limit.
//
// A Limiter is safe for concurrent use.
type Limiter struct {
	opts Options

	mu       sync.Mutex // guards everything below
	limit    float64
	cut      bool      // the limit has been cut at least once (slow start is over)
	lastCut  time.Time // calls that began before it are not judged
	inFlight int
	waiting  int       // calls queued by the caller (Queue)
	lastEnd  time.Time // when a call last ended
	trace    []Point   // with Options.Trace
	// open holds the calls in flight, by their number.
	open   map[uint64]Call
	nextID uint64
	// The current window.
	peak     int // most calls in flight at once
	n        int
	samples  map[string][]time.Duration // kind → latencies
	kinds    map[string]*kind
	reported int
}

type kind struct {
	means []time.Duration // of the last baseWindows windows with enough calls of the kind
}

func (k *kind) base() time.Duration {
	if len(k.means) == 0 {
		return 0
	}
	return slices.Min(k.means)
}

// New returns a limiter with opts; it panics if opts.Max < 1.
func New(opts Options) *Limiter {
	if opts.Max < 1 {
		panic("adaptive.New: Max must be at least 1")
	}
	if opts.Min < 1 {
		opts.Min = 1
	}
	opts.Min = min(opts.Min, opts.Max)
	if opts.Initial <= 0 {
		opts.Initial = defaultInitial
	}
	opts.Initial = max(opts.Min, min(opts.Initial, opts.Max))
	if opts.Tolerance <= 1 {
		opts.Tolerance = defaultTolerance
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Limiter{opts: opts, limit: float64(opts.Initial), reported: opts.Initial,
		samples: map[string][]time.Duration{}, kinds: map[string]*kind{}, open: map[uint64]Call{}}
}

// Limit returns how many calls may run at once now.
func (l *Limiter) Limit() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return int(l.limit)
}

// Max returns the limiter's ceiling.
func (l *Limiter) Max() int { return l.opts.Max }

// Queue tells the limiter that n more calls (n < 0: fewer) wait to begin,
// for a Group to count it busy while they wait.
func (l *Limiter) Queue(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.waiting += n
}

// Call is a call in progress, from Begin to End.
type Call struct {
	l     *Limiter
	id    uint64
	kind  string
	start time.Time
}

// Begin records that a call of kind (its RPC) starts now.
func (l *Limiter) Begin(kind string) Call {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inFlight++
	l.peak = max(l.peak, l.inFlight)
	l.nextID++
	c := Call{l: l, id: l.nextID, kind: kind, start: l.opts.Now()}
	l.open[c.id] = c
	l.traceLocked(c.start)
	return c
}

// Outcome is how a call ended, as far as the limit is concerned.
type Outcome uint8

const (
	// Succeeded: the call's latency is a sample.
	Succeeded Outcome = iota
	// Throttled: the call failed with a throttling error.
	Throttled
	// Failed: the call failed for another reason; its latency says
	// nothing about the API's load.
	Failed
)

// End records that the call ended with outcome.
func (c Call) End(outcome Outcome) {
	l := c.l
	l.mu.Lock()
	l.inFlight--
	delete(l.open, c.id)
	now := l.opts.Now()
	l.lastEnd = now
	if c.start.Before(l.lastCut) || outcome == Failed {
		l.mu.Unlock()
		return
	}
	if outcome == Throttled {
		l.cutLocked(throttleBackoff, now)
	} else {
		l.samples[c.kind] = append(l.samples[c.kind], now.Sub(c.start))
		l.n++
		if l.n >= max(minWindow, int(l.limit)) {
			l.judgeLocked(now)
		}
	}
	l.traceLocked(now)
	notify := l.changedLocked()
	l.mu.Unlock()
	if notify != 0 && l.opts.OnChange != nil {
		l.opts.OnChange(notify)
	}
}

// Point is the state of a limiter from At until the next point: the calls
// in flight and the limit.
type Point struct {
	At       time.Time
	InFlight int
	Limit    int
}

// Trace returns the points recorded with Options.Trace, oldest first (a
// copy, the caller's to keep); nil without Options.Trace.
func (l *Limiter) Trace() []Point {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.trace)
}

// traceLocked records the state at t, merging points of one instant.
func (l *Limiter) traceLocked(t time.Time) {
	if !l.opts.Trace {
		return
	}
	p := Point{At: t, InFlight: l.inFlight, Limit: int(l.limit)}
	if n := len(l.trace); n > 0 {
		last := &l.trace[n-1]
		switch {
		case last.InFlight == p.InFlight && last.Limit == p.Limit:
			return
		case last.At.Equal(t):
			*last = p
			return
		}
	}
	l.trace = append(l.trace, p)
}

// changedLocked returns the integer limit if it changed since last
// reported, else 0.
func (l *Limiter) changedLocked() int {
	if n := int(l.limit); n != l.reported {
		l.reported = n
		return n
	}
	return 0
}

func (l *Limiter) cutLocked(factor float64, now time.Time) {
	l.limit = max(float64(l.opts.Min), l.limit*factor)
	l.cut = true
	l.lastCut = now
	l.resetWindowLocked()
}

func (l *Limiter) resetWindowLocked() {
	l.n = 0
	l.peak = l.inFlight
	clear(l.samples)
}

// judgeLocked ends the window.
func (l *Limiter) judgeLocked(now time.Time) {
	var ratios float64
	judged := 0
	for name, lat := range l.samples {
		k := l.kinds[name]
		if k == nil {
			k = &kind{}
			l.kinds[name] = k
		}
		var sum time.Duration
		for _, d := range lat {
			sum += d
		}
		if base := k.base(); base > 0 {
			for _, d := range lat {
				ratios += min(maxRatio, float64(d)/float64(base))
			}
			judged += len(lat)
		}
		if len(lat) >= minKindSamples {
			k.means = append(k.means, sum/time.Duration(len(lat)))
			if len(k.means) > baseWindows {
				k.means = k.means[1:]
			}
		}
	}
	// A call still in flight is at least as slow as its age: count those
	// past twice the baseline, which a window filled by the calls that
	// end first would miss (throttled calls end last).
	for _, c := range l.open {
		k := l.kinds[c.kind]
		if k == nil || c.start.Before(l.lastCut) {
			continue
		}
		if base := k.base(); base > 0 {
			if r := float64(now.Sub(c.start)) / float64(base); r > stuck {
				ratios += min(maxRatio, r)
				judged++
			}
		}
	}
	ratio := 1.0
	if judged > 0 {
		ratio = ratios / float64(judged)
	}
	if ratio > l.opts.Tolerance {
		// By Little's law, at a capped throughput latency grows with
		// the calls in flight: cut in proportion, by a tenth to a half.
		l.cutLocked(max(maxCut, min(minCut, l.opts.Tolerance/ratio)), now)
		return
	}
	if float64(l.peak) >= l.limit/2 {
		switch {
		case l.cut:
			l.limit++
		case ratio > 1+(l.opts.Tolerance-1)/2:
			// Latency is rising: the start is over.
			l.cut = true
			l.limit++
		default:
			l.limit *= 2
		}
		l.limit = math.Min(l.limit, float64(l.opts.Max))
	}
	l.resetWindowLocked()
}
