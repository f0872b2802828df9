package ephemeral

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// CloseTimeout bounds each Close call made while a run ends, so that an
// interrupted run still releases what it opened without waiting forever.
var CloseTimeout = 30 * time.Second

// Set is the ephemeral resource instances one run (a plan, an apply) has
// opened. It is safe for concurrent use.
type Set struct {
	mu     sync.Mutex
	open   []*instance
	byAddr map[addrs.AbsResourceInstance]*instance
	closed bool
	// renewDiags collects what renewals and the closes Release queued
	// reported, returned by CloseAll.
	renewDiags diag.Diagnostics
	// releasing holds the batches Release queued and not yet closed; one
	// goroutine (running while releaseDone is open) closes them in order.
	releasing   [][]*instance
	releaseDone chan struct{}
	// now is the clock (tests replace it).
	now func() time.Time
	// Hooks, when set before the set is used, observes opens and closes.
	Hooks Hooks
}

// Hooks observes the opening and closing of ephemeral resource instances
// (the views print "ADDR: Opening..."). Methods may be called from several
// goroutines at once.
type Hooks interface {
	PreOpen(addr addrs.AbsResourceInstance)
	PostOpen(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool)
	PreClose(addr addrs.AbsResourceInstance)
	PostClose(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool)
}

// RenewHooks, implemented by a Hooks, is also told of each renewal of an
// open instance. Methods may be called from several goroutines at once.
type RenewHooks interface {
	PreRenew(addr addrs.AbsResourceInstance)
	PostRenew(addr addrs.AbsResourceInstance, elapsed time.Duration, failed bool)
}

// instance is one open ephemeral resource instance.
type instance struct {
	addr     addrs.AbsResourceInstance
	prov     provider.EphemeralResources
	hooks    Hooks
	typeName string
	value    cty.Value

	mu      sync.Mutex // guards private and renewAt
	private []byte
	renewAt time.Time
	// stop ends the renewal goroutine; done is closed when it has ended.
	stop chan struct{}
	done chan struct{}
}

// NewSet returns an empty set.
func NewSet() *Set {
	return &Set{byAddr: map[addrs.AbsResourceInstance]*instance{}, now: time.Now}
}

// Value returns the value of the instance at addr, if it is open.
func (s *Set) Value(addr addrs.AbsResourceInstance) (cty.Value, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in, ok := s.byAddr[addr]; ok {
		return in.value, true
	}
	return cty.NilVal, false
}

// Open opens the ephemeral resource instance addr of type typeName through
// prov with config (wholly known, unmarked) and returns its value. An
// instance already open is not opened again: its value is returned.
func (s *Set) Open(ctx context.Context, addr addrs.AbsResourceInstance, prov provider.Interface, typeName string, config cty.Value) (cty.Value, diag.Diagnostics) {
	s.mu.Lock()
	if in, ok := s.byAddr[addr]; ok {
		s.mu.Unlock()
		return in.value, nil
	}
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return cty.NilVal, diag.Diagnostics{diag.Errorf("Ephemeral resource opened too late",
			"%s was needed after the run had closed its ephemeral resources.", addr)}
	}
	ep, ok := provider.AsEphemeral(prov)
	if !ok {
		return cty.NilVal, diag.Diagnostics{diag.Errorf("Ephemeral resources not supported",
			"The provider of %s does not support ephemeral resources.", addr)}
	}
	start := time.Now()
	if s.Hooks != nil {
		s.Hooks.PreOpen(addr)
	}
	resp := ep.OpenEphemeralResource(ctx, provider.OpenEphemeralRequest{TypeName: typeName, Config: config})
	if s.Hooks != nil {
		s.Hooks.PostOpen(addr, time.Since(start), resp.Diagnostics.HasErrors())
	}
	if resp.Diagnostics.HasErrors() {
		return cty.NilVal, resp.Diagnostics
	}
	in := &instance{addr: addr, prov: ep, hooks: s.Hooks, typeName: typeName, value: resp.Result,
		private: resp.Private, renewAt: resp.RenewAt, stop: make(chan struct{}), done: make(chan struct{})}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ds := resp.Diagnostics.Append(in.close(ctx))
		return cty.NilVal, ds
	}
	s.open = append(s.open, in)
	s.byAddr[addr] = in
	s.mu.Unlock()
	if resp.RenewAt.IsZero() {
		close(in.done)
	} else {
		go s.renew(ctx, in)
	}
	return resp.Result, resp.Diagnostics
}

// renewLead is how long before its renew_at an instance is renewed: a
// tenth of the time left, at most a minute.
func renewLead(left time.Duration) time.Duration {
	lead := left / 10
	if lead > time.Minute {
		lead = time.Minute
	}
	return lead
}

// renew renews in before each renew_at the provider gives, until stopped
// or the provider gives none.
func (s *Set) renew(ctx context.Context, in *instance) {
	defer close(in.done)
	for {
		in.mu.Lock()
		at := in.renewAt
		in.mu.Unlock()
		if at.IsZero() {
			return
		}
		left := at.Sub(s.now())
		wait := left - renewLead(left)
		if wait < 0 {
			wait = 0
		}
		t := time.NewTimer(wait)
		select {
		case <-in.stop:
			t.Stop()
			return
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		in.mu.Lock()
		private := in.private
		in.mu.Unlock()
		rh, _ := in.hooks.(RenewHooks)
		start := time.Now()
		if rh != nil {
			rh.PreRenew(in.addr)
		}
		resp := in.prov.RenewEphemeralResource(ctx, provider.RenewEphemeralRequest{TypeName: in.typeName, Private: private})
		if rh != nil {
			rh.PostRenew(in.addr, time.Since(start), resp.Diagnostics.HasErrors())
		}
		in.mu.Lock()
		if resp.Private != nil {
			in.private = resp.Private
		}
		in.renewAt = resp.RenewAt
		in.mu.Unlock()
		if len(resp.Diagnostics) > 0 {
			s.mu.Lock()
			s.renewDiags = s.renewDiags.Append(withInstance(resp.Diagnostics, in.addr, "renewing"))
			s.mu.Unlock()
		}
		if resp.Diagnostics.HasErrors() {
			return
		}
	}
}

// close stops in's renewals and closes it.
func (in *instance) close(ctx context.Context) diag.Diagnostics {
	select {
	case <-in.stop:
	default:
		close(in.stop)
	}
	<-in.done
	in.mu.Lock()
	private := in.private
	in.mu.Unlock()
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), CloseTimeout)
	defer cancel()
	start := time.Now()
	if in.hooks != nil {
		in.hooks.PreClose(in.addr)
	}
	ds := in.prov.CloseEphemeralResource(cctx, provider.CloseEphemeralRequest{TypeName: in.typeName, Private: private})
	if in.hooks != nil {
		in.hooks.PostClose(in.addr, time.Since(start), ds.HasErrors())
	}
	return withInstance(ds, in.addr, "closing")
}

// Release closes, in the background, every open instance of the
// resources rs (in any module instance), the last opened first, once the
// run no longer needs them. Batches are closed one after another, in the
// order they were released, so that an instance released with or before
// the one its configuration used is closed first. Instances released are
// no longer open: opening one again opens it anew. What closing reports
// is returned by CloseAll, which waits for the closes under way.
func (s *Set) Release(ctx context.Context, rs ...addrs.ConfigResource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var batch []*instance
	kept := s.open[:0]
	for _, in := range s.open {
		if slices.Contains(rs, in.addr.ContainingResource().InConfig()) {
			batch = append(batch, in)
			delete(s.byAddr, in.addr)
			continue
		}
		kept = append(kept, in)
	}
	clear(s.open[len(kept):])
	s.open = kept
	if len(batch) == 0 {
		return
	}
	s.releasing = append(s.releasing, batch)
	if s.releaseDone != nil {
		return
	}
	done := make(chan struct{})
	s.releaseDone = done
	go func() {
		defer close(done)
		for {
			s.mu.Lock()
			if len(s.releasing) == 0 {
				s.releaseDone = nil
				s.mu.Unlock()
				return
			}
			batch := s.releasing[0]
			s.releasing = s.releasing[1:]
			s.mu.Unlock()
			var ds diag.Diagnostics
			for i := len(batch) - 1; i >= 0; i-- {
				ds = ds.Append(batch[i].close(ctx))
			}
			if len(ds) > 0 {
				s.mu.Lock()
				s.renewDiags = s.renewDiags.Append(ds)
				s.mu.Unlock()
			}
		}
	}()
}

// CloseAll waits for the closes Release queued, then closes every
// instance still open, the last opened first (so that an instance is
// closed before those its configuration used), even when ctx is
// cancelled, and returns what closing and renewing reported. Nothing can
// be opened afterwards.
func (s *Set) CloseAll(ctx context.Context) diag.Diagnostics {
	s.mu.Lock()
	for s.releaseDone != nil {
		done := s.releaseDone
		s.mu.Unlock()
		<-done
		s.mu.Lock()
	}
	open := s.open
	s.open, s.closed = nil, true
	s.byAddr = map[addrs.AbsResourceInstance]*instance{}
	ds := s.renewDiags
	s.renewDiags = nil
	s.mu.Unlock()
	for i := len(open) - 1; i >= 0; i-- {
		ds = ds.Append(open[i].close(ctx))
	}
	return ds
}

// Opened returns the addresses of the open instances, in the order they
// were opened.
func (s *Set) Opened() []addrs.AbsResourceInstance {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]addrs.AbsResourceInstance, len(s.open))
	for i, in := range s.open {
		out[i] = in.addr
	}
	return out
}

// withInstance names, in ds, the instance they concern and what was
// being done to it.
func withInstance(ds diag.Diagnostics, addr addrs.AbsResourceInstance, doing string) diag.Diagnostics {
	if len(ds) == 0 {
		return nil
	}
	out := make(diag.Diagnostics, len(ds))
	for i, d := range ds {
		if d.Address == nil {
			d.Address = addr
		}
		if d.Detail == "" {
			d.Detail = fmt.Sprintf("While %s %s.", doing, addr)
		}
		out[i] = d
	}
	return out
}
