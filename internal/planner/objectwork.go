package planner

import (
	"slices"
	"sync"

	"github.com/rig-iac/rig/internal/adaptive"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// errCancelled is the diagnostic of a plan interrupted before it finished.
var errCancelled = diag.Errorf("Operation cancelled", "Planning was interrupted before it finished.")

// objectWork is the provider-calling work of one graph node (a resource in
// every instance of its module) or of the objects the configuration no
// longer has: a function per object — upgrade, read, evaluate, plan — that
// run at once on the planner's pool, within -parallelism and the limits
// (Options.Limits). Each function writes only what belongs to its object,
// or takes p.mu. The diagnostics come back in the order the functions,
// and the diagnostics noted between them, were added, whatever order the
// functions ran in. An objectWork is used by one goroutine.
type objectWork struct {
	p     *planner
	items []workItem
}

type workItem struct {
	// run is the object's work; nil for diagnostics noted between.
	run     func() diag.Diagnostics
	classes []int
	// queued is the limiter of the object's provider configuration (nil
	// unless the set adapts), told of the work while it waits to start.
	queued *adaptive.Limiter
	ds     diag.Diagnostics
	// cancelled: the plan was interrupted before run started.
	cancelled bool
}

func (p *planner) newWork() *objectWork { return &objectWork{p: p} }

// note adds diagnostics found while preparing the work.
func (w *objectWork) note(ds diag.Diagnostics) {
	if len(ds) > 0 {
		w.items = append(w.items, workItem{ds: ds})
	}
}

// add adds the work of the object at addr, served by provider
// configuration pc (which, with addr, decides the limits it counts against).
func (w *objectWork) add(addr addrs.AbsResourceInstance, pc addrs.AbsProviderConfig, run func() diag.Diagnostics) {
	var classes []int
	if w.p.limitClasses != nil {
		classes = w.p.limitClasses(addr, pc)
	}
	var queued *adaptive.Limiter
	if w.p.apis != nil {
		var c int
		if c, queued = w.p.apis.class(pc); queued != nil {
			classes = append(classes, c)
		}
	}
	w.items = append(w.items, workItem{run: run, classes: classes, queued: queued})
}

// wait runs every function added and returns when all have returned, with
// the diagnostics in order (and errCancelled once if the plan was
// interrupted before some of them started).
func (w *objectWork) wait() diag.Diagnostics {
	var wg sync.WaitGroup
	for i := range w.items {
		it := &w.items[i]
		if it.run == nil {
			continue
		}
		wg.Add(1)
		if it.queued != nil {
			it.queued.Queue(1)
		}
		w.p.pool.Go(it.classes, func() {
			defer wg.Done()
			if it.queued != nil {
				it.queued.Queue(-1)
			}
			if w.p.ctx.Err() != nil {
				it.cancelled = true
				return
			}
			it.ds = it.run()
		})
	}
	wg.Wait()
	var ds diag.Diagnostics
	cancelled := false
	for _, it := range w.items {
		ds = ds.Append(it.ds)
		cancelled = cancelled || it.cancelled
	}
	if cancelled {
		ds = ds.Append(errCancelled)
	}
	w.items = nil
	return ds
}

// isCancelled reports whether d is errCancelled.
func isCancelled(d diag.Diagnostic) bool {
	return d.Summary == errCancelled.Summary && d.Detail == errCancelled.Detail
}

// hasCancelled reports whether ds holds errCancelled.
func hasCancelled(ds diag.Diagnostics) bool { return slices.ContainsFunc(ds, isCancelled) }
