package cloud

import (
	"sync"
	"time"
)

// bucket is a token bucket: tokens accrue at rate per second up to burst,
// and each admitted call takes one. A call that finds no token is refused
// and takes none, as cloud APIs count throttled requests. Safe for
// concurrent use.
type bucket struct {
	rate  float64 // tokens per second; <= 0 admits everything
	burst float64
	now   func() time.Time

	mu     sync.Mutex // guards tokens and last
	tokens float64
	last   time.Time
}

func newBucket(rate float64, burst int, now func() time.Time) *bucket {
	if burst < 1 {
		burst = 1
	}
	return &bucket{rate: rate, burst: float64(burst), now: now, tokens: float64(burst), last: now()}
}

// take takes a token and reports whether there was one.
func (b *bucket) take() bool {
	if b.rate <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.now()
	b.tokens = min(b.burst, b.tokens+t.Sub(b.last).Seconds()*b.rate)
	b.last = t
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
