package provider

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/rig-iac/rig/bench/slowcloud/cloud"
)

func dyn(t *testing.T, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return dv
}

func objVal(id, name, value any, rev any) tftypes.Value {
	return tftypes.NewValue(objectType, map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.String, id), "name": tftypes.NewValue(tftypes.String, name),
		"value": tftypes.NewValue(tftypes.String, value), "tags": tftypes.NewValue(tagsType, nil),
		"revision": tftypes.NewValue(tftypes.Number, rev),
	})
}

func attrsOf(t *testing.T, dv *tfprotov6.DynamicValue) map[string]tftypes.Value {
	t.Helper()
	_, m, err := decode(dv, objectType)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestLifecycle drives an object through the calls a tool makes: plan and
// apply a create, read it back, a no-op plan, drift seen by a read, a
// throttled read given up on, and a delete; then checks the counters.
func TestLifecycle(t *testing.T) {
	srv := cloud.NewServer(cloud.Config{})
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	ctx := context.Background()
	p := New()
	cfg := dyn(t, tftypes.NewValue(configType, map[string]tftypes.Value{
		"endpoint": tftypes.NewValue(tftypes.String, ts.URL), "max_retries": tftypes.NewValue(tftypes.Number, nil)}))
	if resp, _ := p.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: cfg}); len(resp.Diagnostics) > 0 {
		t.Fatal(resp.Diagnostics[0].Detail)
	}

	null := dyn(t, tftypes.NewValue(objectType, nil))
	proposed := dyn(t, objVal(tftypes.UnknownValue, "a", "1", tftypes.UnknownValue))
	plan, err := p.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: TypeName, PriorState: null, ProposedNewState: proposed})
	if err != nil {
		t.Fatal(err)
	}
	if m := attrsOf(t, plan.PlannedState); m["id"].IsKnown() {
		t.Errorf("a new object's planned id is known: %v", m["id"])
	}
	applied, _ := p.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: TypeName, PriorState: null, PlannedState: plan.PlannedState})
	if len(applied.Diagnostics) > 0 {
		t.Fatal(applied.Diagnostics[0].Detail)
	}
	created := object(attrsOf(t, applied.NewState))
	if created.ID == "" || created.Name != "a" || created.Value != "1" || created.Revision != 1 {
		t.Fatalf("created %+v", created)
	}

	read, _ := p.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: TypeName, CurrentState: applied.NewState})
	if got := object(attrsOf(t, read.NewState)); got.ID != created.ID || got.Revision != 1 {
		t.Errorf("read back %+v", got)
	}
	noop, _ := p.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: TypeName, PriorState: read.NewState,
		ProposedNewState: read.NewState})
	if m := attrsOf(t, noop.PlannedState); !m["revision"].IsKnown() || len(noop.RequiresReplace) > 0 {
		t.Errorf("a no-op plan changes the revision or replaces: %v %v", m, noop.RequiresReplace)
	}
	renamed := dyn(t, objVal(created.ID, "b", "1", 1))
	if rp, _ := p.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: TypeName, PriorState: read.NewState,
		ProposedNewState: renamed}); len(rp.RequiresReplace) != 1 {
		t.Errorf("a new name does not replace: %v", rp.RequiresReplace)
	}

	srv.Drift(cloud.Drift{Changed: 1})
	read, _ = p.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: TypeName, CurrentState: applied.NewState})
	if got := object(attrsOf(t, read.NewState)); got.Value != "1~drift" || got.Revision != 2 {
		t.Errorf("after drift, read %+v", got)
	}

	throttled := cloud.NewServer(cloud.Config{Rate: 0.001, Burst: 1, ThrottleDelay: time.Millisecond})
	tts := httptest.NewServer(throttled.Handler())
	defer tts.Close()
	c := cloud.NewClient(tts.URL)
	c.MaxRetries, c.BackoffBase, c.BackoffCap = 1, time.Millisecond, time.Millisecond
	p.mu.Lock()
	good := p.client
	p.client = c
	p.mu.Unlock()
	_, _ = c.Get(ctx, "x") // takes the only token
	failed, _ := p.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: TypeName, CurrentState: applied.NewState})
	if len(failed.Diagnostics) != 1 {
		t.Fatalf("a throttled read gave %v", failed.Diagnostics)
	}
	if d := failed.Diagnostics[0].Detail; d != "GetObject: ThrottlingException: Rate exceeded (HTTP 429), given up after 2 attempts" {
		t.Errorf("throttling diagnostic %q", d)
	}
	p.mu.Lock()
	p.client = good
	p.mu.Unlock()

	deleted, _ := p.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: TypeName, PriorState: read.NewState, PlannedState: null})
	if len(deleted.Diagnostics) > 0 || srv.Stats().Objects != 0 {
		t.Errorf("delete: %v, %d objects left", deleted.Diagnostics, srv.Stats().Objects)
	}
	r := p.Report()
	want := map[string]int64{"ConfigureProvider": 1, "PlanResourceChange": 3, "ApplyResourceChange": 2, "ReadResource": 3}
	for rpc, n := range want {
		if r.RPCs[rpc] != n {
			t.Errorf("%s counted %d times, want %d (all: %v)", rpc, r.RPCs[rpc], n, r.RPCs)
		}
	}
	if r.Failures["ReadResource"] != 1 {
		t.Errorf("throttling failures %v, want one ReadResource", r.Failures)
	}
}
