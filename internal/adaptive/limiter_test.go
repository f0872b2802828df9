package adaptive

import (
	"testing"
	"time"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time          { return c.t }
func (c *fakeClock) Advance(d time.Duration) { c.t = c.t.Add(d) }

// wave runs a window of calls of kind (at least 32), limit at a time, each
// taking latency, and returns the limit afterwards.
func wave(l *Limiter, c *fakeClock, kind string, latency time.Duration) int {
	n := l.Limit()
	for left := max(minWindow, n); left > 0; left -= n {
		calls := make([]Call, min(n, left))
		for i := range calls {
			calls[i] = l.Begin(kind)
		}
		c.Advance(latency)
		for _, call := range calls {
			call.End(Succeeded)
		}
	}
	return l.Limit()
}

func TestLimiter(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name string
		opts Options
		// run drives the limiter and returns the limits it went through.
		run  func(l *Limiter, c *fakeClock) []int
		want []int
	}{{
		name: "doubles while latency holds, up to the ceiling",
		opts: Options{Max: 100},
		run: func(l *Limiter, c *fakeClock) []int {
			var out []int
			for range 5 {
				out = append(out, wave(l, c, "ReadResource", 100*ms))
			}
			return out
		},
		want: []int{20, 40, 80, 100, 100},
	}, {
		name: "cut in proportion to the rise of latency, then one more per window",
		opts: Options{Max: 1000},
		run: func(l *Limiter, c *fakeClock) []int {
			var out []int
			for range 2 {
				wave(l, c, "ReadResource", 100*ms) // 20, 40
			}
			for range 3 {
				out = append(out, wave(l, c, "ReadResource", 200*ms))
			}
			for range 3 {
				out = append(out, wave(l, c, "ReadResource", 100*ms))
			}
			return out
		},
		want: []int{24, 14, 8, 9, 10, 11},
	}, {
		name: "latency within the tolerance is no reason to cut",
		opts: Options{Max: 1000, Initial: 16},
		run: func(l *Limiter, c *fakeClock) []int {
			wave(l, c, "ReadResource", 100*ms) // 32
			return []int{wave(l, c, "ReadResource", 105*ms)}
		},
		want: []int{64},
	}, {
		name: "latency rising halfway to the tolerance ends the doubling",
		opts: Options{Max: 1000, Initial: 16},
		run: func(l *Limiter, c *fakeClock) []int {
			wave(l, c, "ReadResource", 100*ms) // 32
			return []int{wave(l, c, "ReadResource", 115*ms), wave(l, c, "ReadResource", 100*ms)}
		},
		want: []int{33, 34},
	}, {
		name: "each kind of call has its own baseline",
		opts: Options{Max: 1000, Initial: 8},
		run: func(l *Limiter, c *fakeClock) []int {
			wave(l, c, "ReadResource", 100*ms)      // 16
			wave(l, c, "PlanResourceChange", 2*ms)  // 32: a first window of a kind sets its baseline
			wave(l, c, "ApplyResourceChange", 1000) // 64
			return []int{wave(l, c, "PlanResourceChange", 2*ms), wave(l, c, "ReadResource", 110*ms)}
		},
		want: []int{128, 256},
	}, {
		name: "a throttling error halves the limit at once",
		opts: Options{Max: 1000},
		run: func(l *Limiter, c *fakeClock) []int {
			wave(l, c, "ReadResource", 100*ms) // 20
			a, b := l.Begin("ReadResource"), l.Begin("ReadResource")
			c.Advance(time.Second)
			a.End(Throttled)
			first := l.Limit()
			b.End(Throttled) // began before the cut: ignored
			return []int{first, l.Limit()}
		},
		want: []int{10, 10},
	}, {
		name: "a limit nobody uses does not grow",
		opts: Options{Max: 1000, Initial: 40},
		run: func(l *Limiter, c *fakeClock) []int {
			var out []int
			for range 3 { // one call at a time
				for range 40 {
					call := l.Begin("ReadResource")
					c.Advance(100 * ms)
					call.End(Succeeded)
				}
				out = append(out, l.Limit())
			}
			return out
		},
		want: []int{40, 40, 40},
	}, {
		name: "other failures say nothing",
		opts: Options{Max: 1000},
		run: func(l *Limiter, c *fakeClock) []int {
			wave(l, c, "ReadResource", 100*ms) // 20
			for range 100 {
				call := l.Begin("ReadResource")
				c.Advance(10 * time.Second)
				call.End(Failed)
			}
			return []int{l.Limit()}
		},
		want: []int{20},
	}, {
		name: "never above the explicit ceiling, never below the floor",
		opts: Options{Max: 5, Initial: 50, Min: 2},
		run: func(l *Limiter, c *fakeClock) []int {
			out := []int{l.Limit(), wave(l, c, "ReadResource", 100*ms)}
			for range 10 {
				call := l.Begin("ReadResource")
				c.Advance(ms)
				call.End(Throttled)
			}
			return append(out, l.Limit())
		},
		want: []int{5, 5, 2},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &fakeClock{t: time.Unix(1e9, 0)}
			tt.opts.Now = c.Now
			l := New(tt.opts)
			got := tt.run(l, c)
			if len(got) != len(tt.want) {
				t.Fatalf("limits %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("limits %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func TestOnChange(t *testing.T) {
	c := &fakeClock{t: time.Unix(1e9, 0)}
	var seen []int
	l := New(Options{Max: 30, Now: c.Now, OnChange: func(n int) { seen = append(seen, n) }})
	wave(l, c, "ReadResource", 100*time.Millisecond)
	wave(l, c, "ReadResource", 100*time.Millisecond)
	wave(l, c, "ReadResource", 100*time.Millisecond)
	if len(seen) != 2 || seen[0] != 20 || seen[1] != 30 {
		t.Errorf("OnChange saw %v, want [20 30]", seen)
	}
}

func TestGroupFairness(t *testing.T) {
	ms := time.Millisecond
	c := &fakeClock{t: time.Unix(1e9, 0)}
	g := NewGroup(64, c.Now)
	newLimiter := func(initial int) *Limiter {
		l := New(Options{Max: 64, Initial: initial, Now: c.Now})
		g.Add(l)
		return l
	}
	a, b := newLimiter(60), newLimiter(60)
	newLimiter(10) // idle throughout
	busy := func(ls ...*Limiter) []Call {
		var calls []Call
		for _, l := range ls {
			calls = append(calls, l.Begin("ReadResource"))
		}
		return calls
	}
	busy(a)
	callsB := busy(b)
	if got := g.Shares(); got[0] != 32 || got[1] != 32 || got[2] != 10 {
		t.Errorf("two busy limiters wanting 60 of 64: shares %v, want 32 each (and the idle one its own 10)", got)
	}
	c.Advance(10 * ms)
	callsB[0].End(Succeeded)
	c.Advance(2 * time.Second)
	if got := g.Shares(); got[0] != 60 {
		t.Errorf("with the other idle: shares %v, want the busy one its own 60", got)
	}
	b.Queue(1) // b has work waiting to start: it is busy again
	if got := g.Shares(); got[0] != 32 || got[1] != 32 {
		t.Errorf("with calls queued for the other: shares %v, want 32 each", got)
	}
	b.Queue(-1)
	for range 10 { // b is throttled down to its floor
		call := b.Begin("ReadResource")
		c.Advance(ms)
		call.End(Throttled)
	}
	busy(b)
	if got := g.Shares(); got[1] != 1 || got[0] != 60 {
		t.Errorf("a throttled limiter beside a busy one: shares %v, want [60 1 …]", got)
	}
}

func TestTrace(t *testing.T) {
	c := &fakeClock{t: time.Unix(1e9, 0)}
	l := New(Options{Max: 20, Initial: 2, Now: c.Now, Trace: true})
	a := l.Begin("ReadResource")
	b := l.Begin("ReadResource")
	c.Advance(time.Second)
	a.End(Succeeded)
	c.Advance(time.Second)
	b.End(Throttled)
	at := func(s int) time.Time { return time.Unix(1e9+int64(s), 0) }
	want := []Point{{at(0), 2, 2}, {at(1), 1, 2}, {at(2), 0, 1}}
	got := l.Trace()
	if len(got) != len(want) {
		t.Fatalf("trace %v, want %v", got, want)
	}
	for i := range got {
		if !got[i].At.Equal(want[i].At) || got[i].InFlight != want[i].InFlight || got[i].Limit != want[i].Limit {
			t.Fatalf("trace %v, want %v", got, want)
		}
	}
	if New(Options{Max: 1}).Trace() != nil {
		t.Error("a limiter without Trace traced")
	}
}
