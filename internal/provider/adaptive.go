package provider

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/adaptive"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// DefaultReadCeiling is the most reads (ReadResource, ReadDataSource) one
// provider configuration has in flight at once when the user set no
// -parallelism. Its adaptive limit starts at 10, OpenTofu's parallelism,
// and grows past it only while the API's latency holds.
const DefaultReadCeiling = 64

// Adaptive makes a Set measure the calls each provider configuration makes
// to its API and keep an adaptive concurrency limit for each (see package
// adaptive).
type Adaptive struct {
	// Ceiling is the most calls a limit allows: an explicit -parallelism,
	// else DefaultReadCeiling.
	Ceiling int
	// Now is the limiters' clock (time.Now when nil).
	Now func() time.Time
	// Initial is every limiter's first limit (default 10).
	Initial int
	// Trace makes every limiter keep its calls in flight and its limit
	// over time (adaptive.Limiter.Trace), for the timeline.
	Trace bool
}

// Adapt turns adaptive limits on, before the set is first used.
func (s *Set) Adapt(a Adaptive) {
	if a.Ceiling <= 0 {
		a.Ceiling = DefaultReadCeiling
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.adaptive = &a
	s.limiters = map[addrs.AbsProviderConfig]*adaptive.Limiter{}
}

// Limiter returns the adaptive limit of the calls of provider
// configuration pc, created on first use; nil unless Adapt was called.
// Every instance Configured returns for pc reports its calls to it.
func (s *Set) Limiter(pc addrs.AbsProviderConfig) *adaptive.Limiter {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limiterLocked(pc)
}

func (s *Set) limiterLocked(pc addrs.AbsProviderConfig) *adaptive.Limiter {
	if s.adaptive == nil {
		return nil
	}
	l := s.limiters[pc]
	if l == nil {
		l = adaptive.New(adaptive.Options{Max: s.adaptive.Ceiling, Initial: s.adaptive.Initial, Now: s.adaptive.Now, Trace: s.adaptive.Trace})
		s.limiters[pc] = l
	}
	return l
}

// measured is a provider instance whose calls to its API (reads, applies,
// imports: planning and validation are the provider's own work) report
// their latency and outcome to a limiter.
type measured struct {
	Interface
	lim *adaptive.Limiter
}

// outcome classifies a call's diagnostics: a throttling error
// (adaptive.Throttling), another error, or success.
func outcome(ds diag.Diagnostics) adaptive.Outcome {
	if !ds.HasErrors() {
		return adaptive.Succeeded
	}
	for _, d := range ds {
		if d.Severity == diag.Error && adaptive.Throttling(d.Summary+"\n"+d.Detail) {
			return adaptive.Throttled
		}
	}
	return adaptive.Failed
}

func (m measured) ReadResource(ctx context.Context, req ReadRequest) ReadResponse {
	c := m.lim.Begin("ReadResource")
	resp := m.Interface.ReadResource(ctx, req)
	c.End(outcome(resp.Diagnostics))
	return resp
}

func (m measured) ReadDataSource(ctx context.Context, req ReadDataRequest) ReadDataResponse {
	c := m.lim.Begin("ReadDataSource")
	resp := m.Interface.ReadDataSource(ctx, req)
	c.End(outcome(resp.Diagnostics))
	return resp
}

func (m measured) ApplyResourceChange(ctx context.Context, req ApplyRequest) ApplyResponse {
	kind := "ApplyResourceChange/update"
	switch {
	case req.PriorState.IsNull():
		kind = "ApplyResourceChange/create"
	case req.PlannedState.IsNull():
		kind = "ApplyResourceChange/delete"
	}
	c := m.lim.Begin(kind)
	resp := m.Interface.ApplyResourceChange(ctx, req)
	c.End(outcome(resp.Diagnostics))
	return resp
}

func (m measured) ImportResourceState(ctx context.Context, req ImportRequest) ImportResponse {
	c := m.lim.Begin("ImportResourceState")
	resp := m.Interface.ImportResourceState(ctx, req)
	c.End(outcome(resp.Diagnostics))
	return resp
}

// Limiters returns the limiter of every provider configuration that has
// one, in the order of their addresses (a new slice; the limiters are
// shared).
func (s *Set) Limiters() ([]addrs.AbsProviderConfig, []*adaptive.Limiter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	pcs := slices.SortedFunc(maps.Keys(s.limiters), func(a, b addrs.AbsProviderConfig) int {
		return strings.Compare(a.String(), b.String())
	})
	ls := make([]*adaptive.Limiter, len(pcs))
	for i, pc := range pcs {
		ls[i] = s.limiters[pc]
	}
	return pcs, ls
}

// AdaptiveCeiling returns the ceiling Adapt was given, 0 unless the set
// adapts.
func (s *Set) AdaptiveCeiling() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.adaptive == nil {
		return 0
	}
	return s.adaptive.Ceiling
}
