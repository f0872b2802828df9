package planner_test

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// interruptingPlanner is the test provider whose plan of the test_thing
// keyed "last" is interrupted while it runs and still succeeds, as a
// provider that does not notice the interrupt in time does.
type interruptingPlanner struct {
	*providertest.Provider
	interrupt context.CancelFunc
}

func (p interruptingPlanner) PlanResourceChange(ctx context.Context, req provider.PlanRequest) provider.PlanResponse {
	if k := req.Config.GetAttr("key"); !k.IsNull() && k.AsString() == "last" {
		p.interrupt()
	}
	return p.Provider.PlanResourceChange(ctx, req)
}

// TestInterruptedPlanFails interrupts a plan while its last node runs,
// after every other node has finished: the plan still ends with the
// interruption as an error and is marked errored, never complete.
func TestInterruptedPlanFails(t *testing.T) {
	const src = `
resource "test_thing" "first" { key = "first" }
resource "test_thing" "last" {
  key = "last"
  ref = [test_thing.first.key]
}
`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := interruptingPlanner{Provider: providertest.New(), interrupt: cancel}
	set := provider.NewSet(provider.Factories{providertest.Address(): func() (provider.Interface, error) { return p, nil }})
	defer set.Close()
	got, ds := planner.Make(ctx, loadConfig(t, src), state.New(), set, planner.Options{})
	if !ds.HasErrors() || ds[len(ds)-1].Summary != "Operation cancelled" {
		t.Fatalf("diagnostics %v, want the interruption as an error", ds)
	}
	if got == nil || !got.Errored {
		t.Fatalf("the interrupted plan is not marked errored: %+v", got)
	}
}
