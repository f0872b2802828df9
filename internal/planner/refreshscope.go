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
	scope        RefreshScope
	mu           sync.Mutex
	refreshed    []addrs.ObjectAddr
	notRefreshed []plan.NotRefreshed
	// touched holds the resources with a change or drift, as recorded
	// dependencies name them.
	touched map[addrs.AbsResource]bool
}

func newRefreshTracker(scope *RefreshScope) *refreshTracker {
	if scope == nil {
		return nil
	}
	t := &refreshTracker{scope: *scope, touched: map[addrs.AbsResource]bool{}}
	if t.scope.MaxAge <= 0 {
		t.scope.MaxAge = DefaultRefreshMaxAge
	}
	if t.scope.Now.IsZero() {
		t.scope.Now = time.Now()
	}
	return t
}

// noteRefreshed records that the object at addr was read back.
func (t *refreshTracker) noteRefreshed(addr addrs.ObjectAddr) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.refreshed = append(t.refreshed, addr)
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

// skippable reports whether the current object at addr, of a resource
// with the given recorded dependencies, may be planned without a refresh,
// and when it was last refreshed.
func (t *refreshTracker) skippable(addr addrs.ObjectAddr, obj *state.Object, deps []addrs.AbsResource) (time.Time, bool) {
	if t == nil || !t.scope.Changed || t.scope.LastRefreshed == nil || obj.Status == state.Tainted {
		return time.Time{}, false
	}
	at, ok := t.scope.LastRefreshed(addr)
	if !ok || t.scope.Now.Sub(at) > t.scope.MaxAge {
		return time.Time{}, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, d := range deps {
		if t.touched[d] {
			return time.Time{}, false
		}
	}
	return at, true
}

// noteNotRefreshed records that the object at addr was planned as recorded.
func (t *refreshTracker) noteNotRefreshed(addr addrs.ObjectAddr, at time.Time) {
	t.mu.Lock()
	t.notRefreshed = append(t.notRefreshed, plan.NotRefreshed{Addr: addr, LastRefreshed: at})
	t.mu.Unlock()
}

// results fills the plan's lists of refreshed and unrefreshed objects, sorted.
func (t *refreshTracker) results(p *plan.Plan) {
	if t == nil {
		return
	}
	slices.SortFunc(t.refreshed, func(a, b addrs.ObjectAddr) int { return a.Compare(b) })
	slices.SortFunc(t.notRefreshed, func(a, b plan.NotRefreshed) int { return a.Addr.Compare(b.Addr) })
	p.Refreshed, p.NotRefreshed = t.refreshed, t.notRefreshed
}
