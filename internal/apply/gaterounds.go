package apply

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
)

// gateRoundsKey names the health-gated replacements whose checks share
// rounds: those of one batch of one resource.
type gateRoundsKey struct {
	res   addrs.AbsResource
	batch int
}

// gateRounds paces the health gate checks of one batch in rounds, every
// interval from the first: each round reads the data sources the
// postconditions refer to once, and every new object of the batch
// waiting at its gate then reads itself and evaluates its postconditions
// against what that read found. It is safe for concurrent use.
type gateRounds struct {
	interval time.Duration

	mu sync.Mutex // guards the fields below
	// first is when the first round started; zero before.
	first time.Time
	// last is the latest round; nil before the first.
	last *gateRound
}

// gateRound is one check round of a batch.
type gateRound struct {
	// at is when the round started.
	at time.Time
	// done is closed once the round's reads have ended; ds is set before.
	done chan struct{}
	ds   diag.Diagnostics
}

// gateRoundsOf returns the rounds that the gate checks of op's batch share.
func (a *applier) gateRoundsOf(op Op, batch int, interval time.Duration) *gateRounds {
	g, _ := a.gateRounds.Do(gateRoundsKey{res: op.Addr.ContainingResource(), batch: batch}, func(g **gateRounds) {
		*g = &gateRounds{interval: interval}
	})
	return *g
}

// firstTick returns when a new object that has just reached its gate is
// first checked: at once when no round has run or one is running (it
// joins it), else at the batch's next round, so that its checks fall in
// the same rounds as the others'.
func (g *gateRounds) firstTick(now time.Time) time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.last == nil {
		return now
	}
	select {
	case <-g.last.done:
		return g.nextTickLocked(g.last.at)
	default:
		return g.last.at
	}
}

// nextTick returns when the round after the one that started at at is due.
func (g *gateRounds) nextTick(at time.Time) time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.nextTickLocked(at)
}

func (g *gateRounds) nextTickLocked(at time.Time) time.Time {
	n := at.Sub(g.first)/g.interval + 1
	return g.first.Add(n * g.interval)
}

// join returns the round due at tick: the one that started at or after
// tick if there is one (waiting for its reads to end), or a new one that
// read starts now. ok is false when ctx ended while waiting.
func (g *gateRounds) join(ctx context.Context, tick time.Time, read func() diag.Diagnostics) (r *gateRound, ok bool) {
	g.mu.Lock()
	if g.last != nil && !g.last.at.Before(tick) {
		r = g.last
		g.mu.Unlock()
		select {
		case <-r.done:
			return r, true
		case <-ctx.Done():
			return r, false
		}
	}
	r = &gateRound{at: time.Now(), done: make(chan struct{})}
	if g.first.IsZero() {
		g.first = r.at
	}
	g.last = r
	g.mu.Unlock()
	r.ds = read()
	close(r.done)
	return r, true
}

// splitGateData separates the data sources a gate reads into those read
// once per round for the whole batch and those read by each new object's
// own check: the ones whose configuration refers to the gated resource
// (directly or through local values), whose answer depends on the object.
func (a *applier) splitGateData(op Op, refs []dataRef) (shared, own []dataRef) {
	target := op.Addr.Resource.Resource
	for _, ref := range refs {
		m := a.cfg.Descendant(ref.res.Module.Module())
		var rd *config.Resource
		if m != nil {
			rd = m.ResourceByAddr(ref.res.Resource)
		}
		if rd != nil && refersTo(m, rd, target) {
			own = append(own, ref)
		} else {
			shared = append(shared, ref)
		}
	}
	return shared, own
}

// refersTo reports whether the configuration of rd (its arguments, count
// and for_each), in module m, refers to resource target, directly or
// through m's local values.
func refersTo(m *config.Module, rd *config.Resource, target addrs.Resource) bool {
	var refs []*lang.Reference
	for _, expr := range []hcl.Expression{rd.Count, rd.ForEach} {
		more, _ := lang.ReferencesInExpr(expr)
		refs = append(refs, more...)
	}
	if rd.Config != nil {
		more, _ := lang.ReferencesInAnyBody(rd.Config)
		refs = append(refs, more...)
	}
	seenLocal := map[string]bool{}
	for len(refs) > 0 {
		ref := refs[0]
		refs = refs[1:]
		switch {
		case ref.Kind == lang.ResourceRef && ref.Resource == target:
			return true
		case ref.Kind == lang.LocalValue && !seenLocal[ref.Name]:
			seenLocal[ref.Name] = true
			if loc := m.Locals[ref.Name]; loc != nil {
				more, _ := lang.ReferencesInExpr(loc.Expr)
				refs = append(refs, more...)
			}
		}
	}
	return false
}
