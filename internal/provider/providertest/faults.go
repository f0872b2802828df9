package providertest

import (
	"sync"
	"time"
)

// The fault-injection methods below take effect for applies that start after
// they return; they may be called while other applies run. An apply's key is
// its object's key attribute, or its id when key is unset (for a create, the
// id allocated to it: "id-1", "id-2", … in order of creation).
//
// An apply first waits (SleepOn, then BlockOn), then checks the faults
// (FailOn, ThrottleOn, then FailOnPartial), then makes its change.

// FailOn makes the next times applies of key and action fail with an error
// diagnostic and no change: a create returns a null object, an update or
// delete returns the prior object. times replaces any count set before; 0
// clears it.
func (p *Provider) FailOn(key string, action Action, times int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	setCount(p.fails, opKey{key, action}, times)
}

// ThrottleOn makes the next times applies of key and action fail as FailOn
// does, with the throttling error a cloud API gives when called too often
// ("ThrottlingException: Rate exceeded").
func (p *Provider) ThrottleOn(key string, action Action, times int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	setCount(p.throttles, opKey{key, action}, times)
}

// FailOnPartial makes the next apply of key and action that would otherwise
// succeed make its change and then return an error diagnostic together with the resulting object: a
// create returns the new object (which is live), an update the updated one,
// a delete the null object (the object is gone). This is the partial result
// of DESIGN §3 rule 10.
func (p *Provider) FailOnPartial(key string, action Action) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.partials[opKey{key, action}]++
}

// SleepOn makes every later apply of key and action sleep for d before it
// acts, like a slow API call: the context does not shorten the sleep, only
// Stop does, in which case the apply returns an error without acting.
// d <= 0 removes the sleep.
func (p *Provider) SleepOn(key string, action Action, d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := opKey{key, action}
	if d <= 0 {
		delete(p.sleeps, k)
		return
	}
	p.sleeps[k] = d
}

// SleepAll makes every apply sleep d (on top of any SleepOn), as a
// uniformly slow API would; d <= 0 removes it. Stop cuts the sleep short.
func (p *Provider) SleepAll(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sleepAll = d
}

// BlockOn makes every apply of key and action that starts before release is
// called wait until it is called (or until Stop, in which case the apply
// returns an error without acting). release may be called more than once and
// from any goroutine; after it, such applies no longer block. A later BlockOn
// for the same key and action installs a new block.
func (p *Provider) BlockOn(key string, action Action) (release func()) {
	ch := make(chan struct{})
	p.mu.Lock()
	p.blocks[opKey{key, action}] = ch
	p.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }
}

// Started returns a channel that is closed when the first apply of key and
// action starts (already closed if one has started), so tests can wait for an
// operation without timing.
func (p *Provider) Started(key string, action Action) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.startedLocked(opKey{key, action})
}

func (p *Provider) startedLocked(k opKey) chan struct{} {
	ch, ok := p.started[k]
	if !ok {
		ch = make(chan struct{})
		p.started[k] = ch
	}
	return ch
}

// takeLocked decrements counts[k] and reports whether it was positive.
func takeLocked(counts map[opKey]int, k opKey) bool {
	if counts[k] <= 0 {
		return false
	}
	setCount(counts, k, counts[k]-1)
	return true
}

func setCount(counts map[opKey]int, k opKey, n int) {
	if n <= 0 {
		delete(counts, k)
		return
	}
	counts[k] = n
}

// wait sleeps for d, then waits for block to be closed (nil: no block). It
// returns false early when stop is closed during either wait.
func wait(d time.Duration, block, stop <-chan struct{}) (completed bool) {
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-stop:
			return false
		}
	}
	if block != nil {
		select {
		case <-block: // released already: do not race it against stop
			return true
		default:
		}
		select {
		case <-block:
		case <-stop:
			return false
		}
	}
	return true
}
