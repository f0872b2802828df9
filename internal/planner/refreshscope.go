package planner

import (
	"slices"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
)

// DefaultRefreshMaxAge is how long an object may go unrefreshed under
// -refresh=changed when no max_age is set.
const DefaultRefreshMaxAge = 24 * time.Hour

// RefreshScope says which recorded objects a plan reads back from their
// APIs, and asks the plan to report which it read.
//
// With Changed unset every object is refreshed, as without a scope. With
// Changed set (plan -refresh=changed), a managed resource's current object
// is refreshed only when its last refresh time is unknown or older than
// MaxAge, when a resource it depends on has a change or drifted, or when
// the plan, made against the object as recorded, would change it (then it
// is refreshed and planned again); every other object is planned as
// recorded and listed in plan.Plan.NotRefreshed. Deposed and orphaned objects,
// refresh-only and destroy plans always refresh.
type RefreshScope struct {
	Changed bool
	// LastRefreshed returns when the object at addr was last read back
	// from its API or written by an apply; false when that is unknown.
	// Called concurrently.
	LastRefreshed func(addr addrs.ObjectAddr) (time.Time, bool)
	// MaxAge is how old a last refresh may be (DefaultRefreshMaxAge when 0).
	MaxAge time.Duration
	// Now is the time the ages are measured at; zero means time.Now().
	Now time.Time
}

// refreshTracker is the planner's record of what it refreshed and what
// changed, under its own lock.
type refreshTracker struct {
	scope RefreshScope
	// hooks learn what is expected and what is left as recorded; nil when
	// the plan's hooks do not listen.
	hooks        plan.RefreshScopeHooks
	mu           sync.Mutex
	refreshed    []plan.Refreshed
	notRefreshed []plan.NotRefreshed
	// touched holds the resources with a change or drift, as recorded
	// dependencies name them.
	touched map[addrs.AbsResource]bool
	// causes holds, for the objects about to be read back under
	// -refresh=changed, why they are.
	causes map[addrs.ObjectAddr]plan.Refreshed
}

func newRefreshTracker(scope *RefreshScope, hooks plan.RefreshHooks) *refreshTracker {
	if scope == nil {
		return nil
	}
	t := &refreshTracker{scope: *scope, touched: map[addrs.AbsResource]bool{}, causes: map[addrs.ObjectAddr]plan.Refreshed{}}
	t.hooks, _ = hooks.(plan.RefreshScopeHooks)
	if t.scope.MaxAge <= 0 {
		t.scope.MaxAge = DefaultRefreshMaxAge
	}
	if t.scope.Now.IsZero() {
		t.scope.Now = time.Now()
	}
	return t
}

// cause returns why the object at addr is read back when nothing more
// specific was noted: every object is (without -refresh=changed), or it is
// one -refresh=changed always reads (deposed, orphaned).
func (t *refreshTracker) cause(addr addrs.ObjectAddr) plan.Refreshed {
	r := plan.Refreshed{Addr: addr, Cause: plan.RefreshEvery}
	if t.scope.Changed {
		r.Cause = plan.RefreshAlways
	}
	if t.scope.LastRefreshed != nil {
		r.LastRefreshed, _ = t.scope.LastRefreshed(addr)
	}
	return r
}

// noteCause records why the object at addr is about to be read back.
func (t *refreshTracker) noteCause(why plan.Refreshed) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.causes[why.Addr] = why
	t.mu.Unlock()
}

// noteRefreshed records that the object at addr was read back.
func (t *refreshTracker) noteRefreshed(addr addrs.ObjectAddr) {
	if t == nil {
		return
	}
	t.mu.Lock()
	why, ok := t.causes[addr]
	delete(t.causes, addr)
	t.mu.Unlock()
	if !ok {
		why = t.cause(addr)
	}
	t.mu.Lock()
	t.refreshed = append(t.refreshed, why)
	t.mu.Unlock()
}

// noteTouched records that the resource of addr has a change or drifted.
func (t *refreshTracker) noteTouched(addr addrs.AbsResourceInstance) {
	if t == nil {
		return
	}
	r := recordedAddr(addr.ContainingResource().InConfig())
	t.mu.Lock()
	t.touched[r] = true
	t.mu.Unlock()
}

// mayKeep reports whether the current object obj at addr may be planned
// as recorded as far as its status and last refresh time say, and why not
// when it may not.
func (t *refreshTracker) mayKeep(addr addrs.ObjectAddr, obj *state.Object) (plan.Refreshed, bool) {
	if t == nil {
		return plan.Refreshed{Addr: addr}, false
	}
	if !t.scope.Changed || t.scope.LastRefreshed == nil {
		return plan.Refreshed{Addr: addr, Cause: plan.RefreshEvery, LastRefreshed: t.cause(addr).LastRefreshed}, false
	}
	at, ok := t.scope.LastRefreshed(addr)
	why := plan.Refreshed{Addr: addr, LastRefreshed: at}
	switch {
	case obj.Status == state.Tainted:
		why.Cause = plan.RefreshTainted
	case !ok:
		why.Cause = plan.RefreshTimeUnknown
	case t.scope.Now.Sub(at) > t.scope.MaxAge:
		why.Cause = plan.RefreshTooOld
	default:
		return why, true
	}
	return why, false
}

// skippable reports whether the current object at addr, of a resource
// with the given recorded dependencies, may be planned without a refresh:
// if so why.LastRefreshed is when it was last refreshed, otherwise why
// says why it is read back.
func (t *refreshTracker) skippable(addr addrs.ObjectAddr, obj *state.Object, deps []addrs.AbsResource) (why plan.Refreshed, keep bool) {
	why, keep = t.mayKeep(addr, obj)
	if !keep {
		return why, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, d := range deps {
		if t.touched[d] {
			why.Cause, why.Dependency = plan.RefreshDependencyChanged, d
			return why, false
		}
	}
	return why, true
}

// noteNotRefreshed records that the object at addr was planned as recorded.
func (t *refreshTracker) noteNotRefreshed(addr addrs.ObjectAddr, at time.Time) {
	t.mu.Lock()
	t.notRefreshed = append(t.notRefreshed, plan.NotRefreshed{Addr: addr, LastRefreshed: at})
	t.mu.Unlock()
	if t.hooks != nil {
		t.hooks.NotRefreshed(addr, at)
	}
}

// results fills the plan's lists of refreshed and unrefreshed objects, sorted.
func (t *refreshTracker) results(p *plan.Plan) {
	if t == nil {
		return
	}
	slices.SortFunc(t.refreshed, func(a, b plan.Refreshed) int { return a.Addr.Compare(b.Addr) })
	slices.SortFunc(t.notRefreshed, func(a, b plan.NotRefreshed) int { return a.Addr.Compare(b.Addr) })
	p.Refreshed, p.NotRefreshed = t.refreshed, t.notRefreshed
	if t.scope.Changed {
		p.Refresh, p.RefreshMaxAge = plan.RefreshChanged, t.scope.MaxAge
	}
}

// expectRefreshes tells the plan's hooks, before the first read, how many
// recorded objects the plan reads back (plan.RefreshScopeHooks): the
// objects of managed resources that selected accepts — current ones, and
// deposed ones unless the plan is refresh-only — and the objects import
// blocks bring in; those -refresh=changed may plan as recorded are only
// maybe read.
func (p *planner) expectRefreshes(selected func(addrs.ObjectAddr) bool) {
	h, ok := p.opts.Hooks.(plan.RefreshScopeHooks)
	if !ok || p.opts.SkipRefresh {
		return
	}
	certain := 0
	var maybe []addrs.ObjectAddr
	// Counted in the state's own order; maybe is sorted at the end.
	for oa := range p.prevRun.AllObjects() {
		if oa.Instance.Resource.Resource.Mode != addrs.Managed || !selected(oa) {
			continue
		}
		switch {
		case oa.Deposed != addrs.NotDeposed:
			if p.opts.Mode != plan.RefreshOnlyMode {
				certain++
			}
		case p.opts.Mode == plan.NormalMode:
			if _, keep := p.refresh.mayKeep(oa, p.prevRun.Object(oa)); keep {
				maybe = append(maybe, oa)
				continue
			}
			certain++
		default:
			certain++
		}
	}
	if p.opts.Mode == plan.NormalMode {
		for addr := range p.imports {
			if inst := p.prevRun.Instance(addr); (inst == nil || inst.Current == nil) && selected(addrs.ObjectAddr{Instance: addr}) {
				certain++
			}
		}
	}
	slices.SortFunc(maybe, addrs.ObjectAddr.Compare)
	h.RefreshesExpected(certain, maybe)
}
