package adaptive

import (
	"container/heap"
	"math/rand/v2"
	"testing"
	"time"
)

// api simulates a cloud API behind a provider on a fake clock: every call
// takes latency ± jitter; a token bucket admits rate calls per second
// (bursts of burst); a refused call is answered after throttleDelay ±
// half, and the provider retries it after a random wait of up to
// min(5 s, 100 ms × 2^retry), up to maxRetries times, then fails.
type api struct {
	latency, jitter, throttleDelay time.Duration
	rate                           float64
	burst, maxRetries              int
}

// simResult is what a simulated refresh of n objects cost.
type simResult struct {
	makespan             time.Duration
	throttled, failures  int // answers refused for the rate; calls that failed for it
	peakLimit, peakCalls int
}

type event struct {
	at time.Time
	fn func()
}

type events []event

func (e events) Len() int                   { return len(e) }
func (e events) Less(i, j int) bool         { return e[i].at.Before(e[j].at) }
func (e events) Swap(i, j int)              { e[i], e[j] = e[j], e[i] }
func (e *events) Push(x any)                { *e = append(*e, x.(event)) }
func (e *events) Pop() any                  { old := *e; x := old[len(old)-1]; *e = old[:len(old)-1]; return x }
func (e *events) at(t time.Time, fn func()) { heap.Push(e, event{t, fn}) }

// simulate reads n objects through a, at most the limiter's limit at once
// (and never more than ceiling).
func simulate(a api, n, ceiling int, seed uint64) simResult {
	c := &fakeClock{t: time.Unix(1e9, 0)}
	start := c.t
	rng := rand.New(rand.NewPCG(seed, 1))
	l := New(Options{Max: ceiling, Now: c.Now})
	var q events
	var res simResult
	tokens, last := float64(a.burst), c.t
	take := func() bool {
		tokens = min(float64(a.burst), tokens+c.t.Sub(last).Seconds()*a.rate)
		last = c.t
		if tokens < 1 {
			return false
		}
		tokens--
		return true
	}
	jitter := func(d, j time.Duration) time.Duration {
		return d - j + time.Duration(rng.Int64N(int64(2*j)+1))
	}
	started, running := 0, 0
	var pump func()
	var attempt func(call Call, retry int)
	attempt = func(call Call, retry int) {
		if take() {
			q.at(c.t.Add(jitter(a.latency, a.jitter)), func() {
				call.End(Succeeded)
				running--
				pump()
			})
			return
		}
		res.throttled++
		q.at(c.t.Add(jitter(a.throttleDelay, a.throttleDelay/2)), func() {
			if retry >= a.maxRetries {
				res.failures++
				call.End(Throttled)
				running--
				pump()
				return
			}
			backoff := min(5*time.Second, 100*time.Millisecond<<retry)
			q.at(c.t.Add(time.Duration(rng.Int64N(int64(backoff)+1))), func() { attempt(call, retry+1) })
		})
	}
	pump = func() {
		for started < n && running < l.Limit() {
			started++
			running++
			res.peakCalls = max(res.peakCalls, running)
			attempt(l.Begin("ReadResource"), 0)
		}
		res.peakLimit = max(res.peakLimit, l.Limit())
	}
	pump()
	for q.Len() > 0 {
		e := heap.Pop(&q).(event)
		c.t = e.at
		e.fn()
	}
	res.makespan = c.t.Sub(start)
	return res
}

// TestRefreshAtTheAPIsSpeed refreshes 5,000 objects behind a 100 ms API
// that admits 200 calls per second (a BDP of 20 calls): the limiter must
// take it within 1.25 × 25 s with no call failing for the rate, where
// OpenTofu's fixed 10 at once takes 50 s.
func TestRefreshAtTheAPIsSpeed(t *testing.T) {
	steady := api{latency: 100 * time.Millisecond, jitter: 20 * time.Millisecond, throttleDelay: 50 * time.Millisecond,
		rate: 200, burst: 20, maxRetries: 8}
	noisy := steady
	noisy.jitter = 50 * time.Millisecond
	for seed := range uint64(4) {
		a := steady
		if seed%2 == 1 {
			a = noisy
		}
		res := simulate(a, 5000, 128, seed)
		t.Logf("seed %d, jitter %v: %.1f s, %d throttled answers (%.1f%% of calls), %d failures, peak limit %d",
			seed, a.jitter, res.makespan.Seconds(), res.throttled, 100*float64(res.throttled)/float64(5000+res.throttled), res.failures, res.peakLimit)
		if res.makespan > 31250*time.Millisecond {
			t.Errorf("seed %d: refresh took %v of simulated time, want at most 31.25 s", seed, res.makespan)
		}
		if res.failures > 0 {
			t.Errorf("seed %d: %d calls failed for the rate", seed, res.failures)
		}
		if share := float64(res.throttled) / float64(5000+res.throttled); share > 0.2 {
			t.Errorf("seed %d: %.0f%% of the calls were refused for the rate, want under 20%%", seed, 100*share)
		}
	}
}

// TestUnlimitedAPI: an API without a rate limit lets the limiter grow to
// its ceiling.
func TestUnlimitedAPI(t *testing.T) {
	a := api{latency: 100 * time.Millisecond, jitter: 20 * time.Millisecond, rate: 1e9, burst: 1e9}
	res := simulate(a, 5000, 64, 1)
	if res.peakLimit != 64 || res.makespan > 10*time.Second {
		t.Errorf("unlimited API: peak limit %d, %v; want 64 and about 5000/640 s", res.peakLimit, res.makespan)
	}
}
