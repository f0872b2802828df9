package apply

import (
	"context"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// checkNoLeaks asserts that state and the provider agree: every live object
// is recorded (nothing leaked) and every recorded object is live (nothing
// forgotten).
func (s *scenario) checkNoLeaks() {
	s.t.Helper()
	live := map[string]bool{}
	for _, o := range s.prov.Live() {
		live[o.ID] = true
	}
	recorded := map[string]string{}
	for _, oa := range s.state.Objects() {
		obj := s.state.Object(oa)
		v, err := obj.Decode(providertest.ThingSchema().Block.ImpliedType())
		if err != nil {
			s.t.Fatalf("%s: %v", oa, err)
		}
		recorded[v.GetAttr("id").AsString()] = oa.String()
	}
	for id := range live {
		if _, ok := recorded[id]; !ok {
			s.t.Errorf("leaked: live object %s is not recorded in state", id)
		}
	}
	for id, addr := range recorded {
		if !live[id] {
			s.t.Errorf("forgotten: %s (%s) is recorded but does not exist", addr, id)
		}
	}
}

// converge plans and applies src until nothing changes (at most 3 times)
// and fails the test if it does not converge.
func (s *scenario) converge(src string) {
	s.t.Helper()
	for range 3 {
		p, ds := s.plan(src, plan.NormalMode)
		if ds.HasErrors() {
			s.t.Fatalf("plan: %v", ds.Err())
		}
		if !p.HasChanges() {
			s.checkNoLeaks()
			return
		}
		if _, ds := s.apply(src, p); ds.HasErrors() {
			s.t.Fatalf("apply while converging: %v", ds.Err())
		}
	}
	s.t.Fatal("plan did not converge")
}

func (s *scenario) action(addr addrs.AbsResourceInstance, p *plan.Plan) (plan.Action, plan.ActionReason) {
	for _, c := range p.Changes {
		if c.Addr == addr && c.Deposed == addrs.NotDeposed {
			return c.Action, c.Reason
		}
	}
	return plan.NoOp, plan.ReasonNone
}

// TestFailedCreateStopsDependentsOnly: b's create fails; c (depends on b)
// does not run; d (independent) still runs; the next plan creates b and c.
func TestFailedCreateStopsDependentsOnly(t *testing.T) {
	cfg := things(
		thingSpec{name: "a", value: "1"},
		thingSpec{name: "b", value: "1", refs: []string{"a"}},
		thingSpec{name: "c", value: "1", refs: []string{"b"}},
		thingSpec{name: "d", value: "1", refs: []string{"a"}},
	)
	s := newScenario(t)
	s.prov.FailOn("b", providertest.Create, 1)
	_, ops, ds := s.step(cfg, plan.NormalMode)
	if !ds.HasErrors() {
		t.Fatal("apply succeeded despite the failure")
	}
	got := providertest.OrderString(ops)
	if !strings.Contains(got, "create b (failed)") || strings.Contains(got, "create c") || !strings.Contains(got, "create d") {
		t.Fatalf("operations: %s", got)
	}
	s.checkNoLeaks()
	p, _ := s.plan(cfg, plan.NormalMode)
	if a, _ := s.action(thing("b"), p); a != plan.Create {
		t.Fatalf("next plan for b: %v, want create", a)
	}
	s.converge(cfg)
}

// TestPartialCreateIsTainted: a create that fails after making the object
// records it tainted; the next plan replaces it (replace_because_tainted).
func TestPartialCreateIsTainted(t *testing.T) {
	cfg := things(thingSpec{name: "a", value: "1"})
	s := newScenario(t)
	s.prov.FailOnPartial("a", providertest.Create)
	if _, _, ds := s.step(cfg, plan.NormalMode); !ds.HasErrors() {
		t.Fatal("no error")
	}
	obj := s.state.Object(addrsObj("a"))
	if obj == nil || obj.Status != state.Tainted {
		t.Fatalf("object after partial create: %+v", obj)
	}
	s.checkNoLeaks()
	p, _ := s.plan(cfg, plan.NormalMode)
	if a, r := s.action(thing("a"), p); a != plan.DeleteThenCreate || r != plan.ReplaceBecauseTainted {
		t.Fatalf("next plan: %v %v, want delete-then-create because tainted", a, r)
	}
	s.converge(cfg)
}

// TestFailedCBDCreateKeepsPartialAndDeposed: rule 10 — a create-first
// replacement whose create fails with a partial object keeps the new one
// current and tainted and the old one deposed; the next plan deletes the
// deposed one and replaces the tainted one.
func TestFailedCBDCreateKeepsPartialAndDeposed(t *testing.T) {
	a := thingSpec{name: "a", value: "1", replaceKey: "r1", cbd: true}
	s := newScenario(t)
	s.mustStep(things(a), plan.NormalMode)
	a.replaceKey = "r2"
	s.prov.FailOnPartial("a", providertest.Create)
	if _, _, ds := s.step(things(a), plan.NormalMode); !ds.HasErrors() {
		t.Fatal("no error")
	}
	inst := s.state.Instance(thing("a"))
	if inst.Current == nil || inst.Current.Status != state.Tainted || len(inst.Deposed) != 1 {
		t.Fatalf("after failed create-first replacement: current %+v, %d deposed", inst.Current, len(inst.Deposed))
	}
	s.checkNoLeaks()
	p, _ := s.plan(things(a), plan.NormalMode)
	var deposedDelete bool
	for _, c := range p.Changes {
		if c.Deposed != addrs.NotDeposed && c.Action == plan.Delete {
			deposedDelete = true
		}
	}
	if act, _ := s.action(thing("a"), p); act != plan.CreateThenDelete || !deposedDelete {
		t.Fatalf("next plan: %v, deposed delete %v", act, deposedDelete)
	}
	s.converge(things(a))
}

// TestFailedDeposedDeleteIsRetried: rule 10 — when deleting the old object
// of a create-first replacement fails, it stays deposed and the next plan
// deletes it.
func TestFailedDeposedDeleteIsRetried(t *testing.T) {
	a := thingSpec{name: "a", value: "1", replaceKey: "r1", cbd: true}
	b := thingSpec{name: "b", value: "1", refs: []string{"a"}}
	s := newScenario(t)
	s.mustStep(things(a, b), plan.NormalMode)
	a.replaceKey = "r2"
	s.prov.FailOn("a", providertest.Delete, 1)
	_, ops, ds := s.step(things(a, b), plan.NormalMode)
	if !ds.HasErrors() {
		t.Fatal("no error")
	}
	checkSequence(t, ops, "create a; update b; delete a (failed)")
	if s.deposedCount() != 1 {
		t.Fatalf("%d deposed objects, want 1", s.deposedCount())
	}
	s.checkNoLeaks()
	_, ops = s.mustStep(things(a, b), plan.NormalMode)
	checkSequence(t, ops, "delete a")
	if s.deposedCount() != 0 {
		t.Fatal("deposed object not deleted")
	}
	s.converge(things(a, b))
}

// TestFailedDeleteFirstReplacement: the delete succeeds, the create fails:
// nothing is left that the plan would not show again.
func TestFailedDeleteFirstReplacement(t *testing.T) {
	a := thingSpec{name: "a", value: "1", replaceKey: "r1"}
	s := newScenario(t)
	s.mustStep(things(a), plan.NormalMode)
	a.replaceKey = "r2"
	s.prov.FailOn("a", providertest.Create, 1)
	_, ops, ds := s.step(things(a), plan.NormalMode)
	if !ds.HasErrors() {
		t.Fatal("no error")
	}
	checkSequence(t, ops, "delete a; create a (failed)")
	if s.state.Object(addrsObj("a")) != nil {
		t.Fatal("deleted object still recorded")
	}
	s.checkNoLeaks()
	p, _ := s.plan(things(a), plan.NormalMode)
	if act, _ := s.action(thing("a"), p); act != plan.Create {
		t.Fatalf("next plan: %v, want create", act)
	}
	s.converge(things(a))
}

// TestInterruptFinishesRunningOperations: cancelling the context (the first
// Ctrl-C) lets the running operation finish and be recorded, and starts
// nothing new.
func TestInterruptFinishesRunningOperations(t *testing.T) {
	cfg := things(
		thingSpec{name: "a", value: "1"},
		thingSpec{name: "b", value: "1", refs: []string{"a"}},
	)
	s := newScenario(t)
	ds := s.applyCancelledDuring(cfg, "a")
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "interrupted") {
		t.Fatalf("diagnostics: %v", ds.Err())
	}
	checkSequence(t, s.prov.Ops(), "create a")
	if s.state.Object(addrsObj("a")) == nil {
		t.Fatal("finished operation not recorded")
	}
	s.checkNoLeaks()
	s.converge(cfg)
}

// TestForcedStopSavesState: a second interrupt stops the providers; the
// running operation fails at once and the state is still saved and valid.
func TestForcedStopSavesState(t *testing.T) {
	cfg := things(thingSpec{name: "a", value: "1"}, thingSpec{name: "z", value: "1"})
	s := newScenario(t)
	s.parallelism = 1
	release := s.prov.BlockOn("a", providertest.Create) // only Stop ends this apply
	started := s.prov.Started("a", providertest.Create)
	p, _ := s.plan(cfg, plan.NormalMode)
	ctx, cancel := context.WithCancel(context.Background())
	set := provider.NewSet(s.factories())
	defer set.Close()
	done := make(chan struct{})
	var st *state.State
	go func() {
		defer close(done)
		st, _ = Apply(ctx, loadConfig(t, cfg), p, set, Options{StateWriter: s, Parallelism: 1})
	}()
	<-started
	cancel()
	set.Stop(context.Background())
	<-done
	release() // for the converging runs below
	s.state = st
	ops := s.prov.Ops()
	if got := providertest.OrderString(ops); got != "create a (failed)" {
		t.Fatalf("operations: %s", got)
	}
	s.checkNoLeaks()
	s.converge(cfg)
}

// TestDestroyFailureKeepsDependencies: when deleting c fails during a
// destroy, what c depends on is kept (it would be deleted after c), and the
// next destroy finishes the job.
func TestDestroyFailureKeepsDependencies(t *testing.T) {
	cfg := things(
		thingSpec{name: "a", value: "1"},
		thingSpec{name: "b", value: "1", refs: []string{"a"}},
		thingSpec{name: "c", value: "1", refs: []string{"b"}},
		thingSpec{name: "x", value: "1"},
	)
	s := newScenario(t)
	s.mustStep(cfg, plan.NormalMode)
	s.prov.FailOn("c", providertest.Delete, 1)
	_, ops, ds := s.step(cfg, plan.DestroyMode)
	if !ds.HasErrors() {
		t.Fatal("no error")
	}
	got := providertest.OrderString(ops)
	if !strings.Contains(got, "delete c (failed)") || strings.Contains(got, "delete b") || strings.Contains(got, "delete a") || !strings.Contains(got, "delete x") {
		t.Fatalf("operations: %s", got)
	}
	s.checkNoLeaks()
	_, ops = s.mustStep(cfg, plan.DestroyMode)
	checkSequence(t, ops, "delete c; delete b; delete a")
	if len(s.state.Resources) != 0 || len(s.prov.Live()) != 0 {
		t.Fatal("not everything destroyed")
	}
}

// TestRemovedFromConfigFailure: resources removed from the configuration
// are deleted dependents-first; when one delete fails, it stays recorded
// (nothing forgotten), nothing is leaked, and the next plan deletes it.
func TestRemovedFromConfigFailure(t *testing.T) {
	a := thingSpec{name: "a", value: "1"}
	b := thingSpec{name: "b", value: "1", refs: []string{"a"}}
	c := thingSpec{name: "c", value: "1", refs: []string{"b"}}
	s := newScenario(t)
	s.mustStep(things(a, b, c), plan.NormalMode)
	s.prov.FailOn("b", providertest.Delete, 1)
	_, ops, ds := s.step(things(a), plan.NormalMode)
	if !ds.HasErrors() {
		t.Fatal("no error")
	}
	checkSequence(t, ops, "delete c; delete b (failed)")
	if s.state.Object(addrsObj("b")) == nil || s.state.Object(addrsObj("c")) != nil {
		t.Fatal("state does not match what happened")
	}
	s.checkNoLeaks()
	p, _ := s.plan(things(a), plan.NormalMode)
	if act, r := s.action(thing("b"), p); act != plan.Delete || r != plan.DeleteBecauseNoResourceConfig {
		t.Fatalf("next plan for b: %v %v", act, r)
	}
	s.converge(things(a))
}

// applyCancelledDuring plans cfg and applies it with a context cancelled
// while the create of the thing named name runs, which then finishes; the
// state the apply returns becomes the scenario's.
func (s *scenario) applyCancelledDuring(cfg, name string) diag.Diagnostics {
	s.t.Helper()
	release := s.prov.BlockOn(name, providertest.Create)
	started := s.prov.Started(name, providertest.Create)
	p, ds := s.plan(cfg, plan.NormalMode)
	if ds.HasErrors() {
		s.t.Fatal(ds.Err())
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var st *state.State
	go func() {
		defer close(done)
		set := provider.NewSet(s.factories())
		defer set.Close()
		st, ds = Apply(ctx, loadConfig(s.t, cfg), p, set, Options{StateWriter: s})
	}()
	<-started
	cancel()
	release()
	<-done
	s.state = st
	return ds
}
