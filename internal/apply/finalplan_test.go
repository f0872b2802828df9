package apply

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/zclconf/go-cty/cty"
)

// countingProvider counts the PlanResourceChange and ApplyResourceChange
// calls made to the test provider, and gives test_other objects a plan
// with no unknown values (as time_static plans a create with rfc3339 set):
// id "id-KEY", output equal to value, and private data "private-KEY",
// which the apply must receive.
type countingProvider struct {
	*providertest.Provider
	mu             sync.Mutex
	plans, applies map[string]int
	// appliedPrivate is the PlannedPrivate each apply of test_other got, by key.
	appliedPrivate map[string]string
}

func newCounting(p *providertest.Provider) *countingProvider {
	return &countingProvider{Provider: p, plans: map[string]int{}, applies: map[string]int{}, appliedPrivate: map[string]string{}}
}

func keyOf(v cty.Value) string {
	if v.IsNull() || !v.IsKnown() {
		return ""
	}
	k := v.GetAttr("key")
	if k.IsNull() || !k.IsKnown() {
		return ""
	}
	return k.AsString()
}

func (c *countingProvider) PlanResourceChange(ctx context.Context, req provider.PlanRequest) provider.PlanResponse {
	c.mu.Lock()
	c.plans[req.TypeName]++
	c.mu.Unlock()
	if req.TypeName != providertest.OtherType || req.ProposedNewState.IsNull() || !req.ProposedNewState.IsWhollyKnown() {
		return c.Provider.PlanResourceChange(ctx, req)
	}
	planned := req.ProposedNewState.AsValueMap()
	key := keyOf(req.ProposedNewState)
	planned["id"] = cty.StringVal("id-" + key)
	planned["output"] = planned["value"]
	return provider.PlanResponse{PlannedState: cty.ObjectVal(planned), PlannedPrivate: []byte("private-" + key)}
}

func (c *countingProvider) ApplyResourceChange(ctx context.Context, req provider.ApplyRequest) provider.ApplyResponse {
	c.mu.Lock()
	c.applies[req.TypeName]++
	if req.TypeName == providertest.OtherType {
		c.appliedPrivate[keyOf(req.PlannedState)] = string(req.PlannedPrivate)
	}
	c.mu.Unlock()
	if req.TypeName != providertest.OtherType {
		return c.Provider.ApplyResourceChange(ctx, req)
	}
	if req.PlannedState.IsNull() {
		return provider.ApplyResponse{NewState: req.PlannedState}
	}
	return provider.ApplyResponse{NewState: req.PlannedState, Private: req.PlannedPrivate}
}

func (c *countingProvider) counts(typeName string) (plans, applies int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.plans[typeName], c.applies[typeName]
}

func (c *countingProvider) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.plans)
	clear(c.applies)
	clear(c.appliedPrivate)
}

func TestApplySendsAFinalSavedPlanWithoutPlanningAgain(t *testing.T) {
	s := newScenario(t)
	var counting *countingProvider
	s.wrap = func(p *providertest.Provider) provider.Interface {
		if counting == nil {
			counting = newCounting(p)
		}
		return counting
	}
	const create = `
resource "test_other" "known" {
  count = 3
  key   = "k${count.index}"
  value = "v${count.index}"
}
resource "test_thing" "unknown" {
  count = 2
  key   = "u${count.index}"
}
`
	p, ds := s.plan(create, plan.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	for _, c := range p.Changes {
		if want := c.Addr.Resource.Resource.Type == providertest.OtherType; c.IsFinal() != want {
			t.Errorf("%s: final plan recorded = %v, want %v", c.Addr, c.IsFinal(), want)
		}
	}
	counting.reset()
	if _, ds := s.apply(create, p); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	// Wholly known plans are applied as planned; plans with unknown ids are made again.
	for _, tc := range []struct {
		typeName              string
		wantPlans, wantApplys int
	}{
		{providertest.OtherType, 0, 3},
		{providertest.ThingType, 2, 2},
	} {
		plans, applies := counting.counts(tc.typeName)
		if plans != tc.wantPlans || applies != tc.wantApplys {
			t.Errorf("%s at apply: %d PlanResourceChange and %d ApplyResourceChange calls, want %d and %d", tc.typeName, plans, applies, tc.wantPlans, tc.wantApplys)
		}
	}
	for i := range 3 {
		key := fmt.Sprintf("k%d", i)
		if got, want := counting.appliedPrivate[key], "private-"+key; got != want {
			t.Errorf("apply of %s got private data %q, want the planned %q", key, got, want)
		}
	}

	// An update whose value depends on what apply learns is planned again;
	// one whose configuration is known is not.
	const update = `
resource "test_other" "known" {
  count = 3
  key   = "k${count.index}"
  value = count.index == 0 ? test_thing.unknown[0].output : "w${count.index}"
}
resource "test_thing" "unknown" {
  count = 2
  key   = "u${count.index}"
  value = "changed"
}
`
	p, ds = s.plan(update, plan.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	counting.reset()
	if _, ds := s.apply(update, p); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if plans, applies := counting.counts(providertest.OtherType); plans != 1 || applies != 3 {
		t.Errorf("test_other updates at apply: %d PlanResourceChange and %d ApplyResourceChange calls, want 1 (known[0], whose value was unknown) and 3", plans, applies)
	}
}

func TestApplyPlansAgainWhenTheConfigurationChanged(t *testing.T) {
	s := newScenario(t)
	var counting *countingProvider
	s.wrap = func(p *providertest.Provider) provider.Interface {
		if counting == nil {
			counting = newCounting(p)
		}
		return counting
	}
	p, ds := s.plan(`resource "test_other" "a" { key = "a" }`, plan.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	counting.reset()
	// The same plan applied with another configuration: the provider is
	// asked again, and its new plan contradicts the saved one.
	_, ds = s.apply(`resource "test_other" "a" { key = "b" }`, p)
	if plans, _ := counting.counts(providertest.OtherType); plans != 1 {
		t.Errorf("PlanResourceChange calls at apply = %d, want 1", plans)
	}
	if !ds.HasErrors() || ds.Err() == nil {
		t.Fatalf("apply of a changed configuration succeeded, want an inconsistent final plan")
	}
}
