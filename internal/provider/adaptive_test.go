package provider_test

import (
	"context"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/zclconf/go-cty/cty"
)

// TestAdaptiveSetMeasuresAPICalls: a set that adapts gives each provider
// configuration a limiter, and the instances it configures report their
// API calls to it (a throttling error halves the limit); one that does not
// adapt has none.
func TestAdaptiveSetMeasuresAPICalls(t *testing.T) {
	p := providertest.New()
	pc := addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("test")}
	plain := provider.NewSet(p.Factories())
	defer plain.Close()
	if plain.Limiter(pc) != nil || plain.AdaptiveCeiling() != 0 {
		t.Fatal("a set that does not adapt has a limiter")
	}

	now := time.Unix(1e9, 0)
	set := provider.NewSet(p.Factories())
	defer set.Close()
	set.Adapt(provider.Adaptive{Ceiling: 32, Now: func() time.Time { return now }, Trace: true})
	inst, ds := set.Configured(context.Background(), pc, func(*provider.Schemas) (cty.Value, diag.Diagnostics) {
		return cty.EmptyObjectVal, nil
	})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	l := set.Limiter(pc)
	if l == nil || l.Max() != 32 || l.Limit() != 10 {
		t.Fatalf("limiter %v: want one with ceiling 32 starting at 10", l)
	}
	p.ThrottleOn("t0", providertest.Create, 1)
	block := providertest.ThingSchema().Block
	null := cty.NullVal(block.ImpliedType())
	config := cty.ObjectVal(map[string]cty.Value{
		"id": cty.NullVal(cty.String), "key": cty.StringVal("t0"), "name": cty.NullVal(cty.String),
		"value": cty.NullVal(cty.String), "replace_key": cty.NullVal(cty.String), "output": cty.NullVal(cty.String),
		"ref": cty.NullVal(cty.List(cty.String)),
	})
	planned := inst.PlanResourceChange(context.Background(), provider.PlanRequest{TypeName: "test_thing", PriorState: null,
		ProposedNewState: provider.ProposedNew(block, null, config), Config: config})
	if planned.Diagnostics.HasErrors() {
		t.Fatal(planned.Diagnostics.Err())
	}
	resp := inst.ApplyResourceChange(context.Background(), provider.ApplyRequest{TypeName: "test_thing",
		PriorState: null, PlannedState: planned.PlannedState, Config: config})
	if !resp.Diagnostics.HasErrors() {
		t.Fatal("the throttled create succeeded")
	}
	if got := l.Limit(); got != 5 {
		t.Errorf("limit after a throttling error: %d, want 5", got)
	}
	// The clock stands still: the call's start and end are one instant.
	if tr := l.Trace(); len(tr) != 1 || tr[0].InFlight != 0 || tr[0].Limit != 5 {
		t.Errorf("trace %v, want one instant: no call in flight, the limit halved", tr)
	}
	pcs, ls := set.Limiters()
	if len(pcs) != 1 || pcs[0] != pc || ls[0] != l {
		t.Errorf("Limiters: %v", pcs)
	}
}
