package testrun

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/state"
)

// cleanup destroys the file's states, the one last updated by the latest
// run first (reverse run order), each with the configuration, variables
// and providers of the run that last updated it, prevent_destroy ignored.
// A state whose last run has skip_cleanup is kept. It stops when the suite
// is cancelled (a first interrupt still cleans up).
func (fr *fileRunner) cleanup() {
	fr.mu.Lock()
	var keys []string
	for key, ks := range fr.states {
		if ks.run != nil && len(managedObjects(ks.state)) > 0 {
			keys = append(keys, key)
		}
	}
	slices.SortFunc(keys, func(a, b string) int { return fr.states[b].run.Index - fr.states[a].run.Index })
	fr.mu.Unlock()
	for _, key := range keys {
		if fr.s.cancelled() {
			fr.reportCancelled()
			return
		}
		fr.mu.Lock()
		ks := fr.states[key]
		fr.mu.Unlock()
		c := &CleanupResult{StateKey: key, Run: ks.run}
		if ks.run.SkipCleanup {
			c.Skipped, c.Left = true, ks.state
			fr.res.Cleanups = append(fr.res.Cleanups, c)
			continue
		}
		fr.s.acquire()
		start := time.Now()
		left, ds := fr.destroy(ks)
		c.Elapsed = time.Since(start)
		fr.s.release()
		c.Diagnostics = ds
		if len(managedObjects(left)) > 0 {
			c.Left = left
		}
		fr.mu.Lock()
		fr.states[key] = &keyState{state: left, run: ks.run, setup: ks.setup}
		fr.mu.Unlock()
		if len(ds) > 0 || c.Left != nil {
			fr.res.Cleanups = append(fr.res.Cleanups, c)
		}
	}
}

// destroy plans and applies the destruction of ks's objects and returns
// what is left.
func (fr *fileRunner) destroy(ks *keyState) (*state.State, diag.Diagnostics) {
	ctx := fr.s.cancelCtx
	opts := fr.s.opts
	setup := ks.setup
	p, ds := opts.Plan(ctx, setup.cfg, ks.state, setup.set, planner.Options{Mode: plan.DestroyMode, Variables: setup.vars.Module,
		Parallelism: opts.Parallelism, Env: opts.Env, IgnorePreventDestroy: true})
	if ds.HasErrors() || p == nil {
		return ks.state, ds
	}
	left, more := opts.Apply(ctx, setup.cfg, p, setup.set, apply.Options{Parallelism: opts.Parallelism, Provisioners: opts.Provisioners, Env: opts.Env})
	if left == nil {
		left = ks.state
	}
	return left, ds.Append(more)
}

// managedObjects returns the managed resources' objects of s (data sources
// need no cleanup), in address order.
func managedObjects(s *state.State) []addrs.ObjectAddr {
	if s == nil {
		return nil
	}
	var out []addrs.ObjectAddr
	for _, o := range s.Objects() {
		if o.Instance.Resource.Resource.Mode == addrs.Managed {
			out = append(out, o)
		}
	}
	return out
}

// leftObjects returns the managed objects of s with their ids.
func leftObjects(s *state.State) []LeftObject {
	var out []LeftObject
	for _, o := range managedObjects(s) {
		lo := LeftObject{Addr: o}
		if obj := s.Object(o); obj != nil {
			var attrs map[string]json.RawMessage
			if json.Unmarshal(obj.AttrsJSON, &attrs) == nil {
				var id string
				if json.Unmarshal(attrs["id"], &id) == nil {
					lo.ID = id
				}
			}
		}
		out = append(out, lo)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// String returns the object as reports list it: its address, the deposed
// key of a deposed object, and its id.
func (o LeftObject) String() string {
	s := o.Addr.Instance.String()
	if o.Addr.Deposed != addrs.NotDeposed {
		s += fmt.Sprintf(" (%s)", o.Addr.Deposed)
	}
	if o.ID != "" {
		s += fmt.Sprintf(" [id=%s]", o.ID)
	}
	return s
}
