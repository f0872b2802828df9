package apply

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// deposeHooks records the object each operation acted on, as the hooks
// saw it: "delete test_thing.a (deposed object 00000001)".
type deposeHooks struct {
	NoHooks
	mu  sync.Mutex
	ops []string
}

func (h *deposeHooks) PreApply(op Operation) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ops = append(h.ops, op.Action.String()+" "+addrs.ObjectAddr{Instance: op.Addr, Deposed: op.Deposed}.String())
}

// TestDeposedKeysInjected: the deposed keys of create_before_destroy
// replacements come from the source Prepare is given, so that two runs of
// the same steps depose, record and delete the same objects under the
// same keys, and the operations that ran name them.
func TestDeposedKeysInjected(t *testing.T) {
	run := func() (keys []addrs.DeposedKey, ran []string) {
		s := newScenario(t)
		hooks := &deposeHooks{}
		s.hooks = hooks
		a := thingSpec{name: "a", value: "1", replaceKey: "r1", cbd: true}
		s.mustStep(things(a), plan.NormalMode)
		// The first replacement's delete fails: its old object stays deposed.
		a.replaceKey = "r2"
		s.prov.FailOn("a", providertest.Delete, 1)
		if _, _, ds := s.step(things(a), plan.NormalMode); !ds.HasErrors() {
			t.Fatal("the deposed object's delete did not fail")
		}
		for _, oa := range s.state.Objects() {
			if oa.Deposed != addrs.NotDeposed {
				keys = append(keys, oa.Deposed)
			}
		}
		// The second deposes the current object again, under a new key,
		// and deletes both.
		a.replaceKey = "r3"
		s.mustStep(things(a), plan.NormalMode)
		if n := s.deposedCount(); n != 0 {
			t.Fatalf("%d deposed objects left", n)
		}
		return keys, hooks.ops
	}
	keys, ran := run()
	if want := []addrs.DeposedKey{"00000001"}; !slices.Equal(keys, want) {
		t.Errorf("deposed keys in state %v, want %v", keys, want)
	}
	var deletes []string
	for _, op := range ran {
		if strings.HasPrefix(op, "delete ") {
			deletes = append(deletes, op)
		}
	}
	slices.Sort(deletes)
	want := []string{
		"delete test_thing.a (deposed object 00000001)", // failed, then deleted by the third apply
		"delete test_thing.a (deposed object 00000001)",
		"delete test_thing.a (deposed object 00000002)",
	}
	if !slices.Equal(deletes, want) {
		t.Errorf("deletes ran on\n  %s\nwant\n  %s", strings.Join(deletes, "\n  "), strings.Join(want, "\n  "))
	}
	// The third apply deletes both deposed objects in parallel: compare the
	// operations as sets.
	keys2, ran2 := run()
	slices.Sort(ran)
	slices.Sort(ran2)
	if !slices.Equal(keys, keys2) || !slices.Equal(ran, ran2) {
		t.Errorf("a second run deposed %v and ran %v; the first %v and %v", keys2, ran2, keys, ran)
	}
}

// TestSequentialDeposedKeysSkipUsed: a sequential key is never one the
// instance already has deposed.
func TestSequentialDeposedKeysSkipUsed(t *testing.T) {
	keys := SequentialDeposedKeys()
	addr := thing("a")
	inst := &state.Instance{Deposed: map[addrs.DeposedKey]*state.Object{"00000001": {}, "00000003": {}}}
	var got []addrs.DeposedKey
	for range 3 {
		got = append(got, keys(addr, inst))
	}
	if want := []addrs.DeposedKey{"00000002", "00000004", "00000005"}; !slices.Equal(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
}

// TestOrderWithRulesKeepsDeposedKeys: when a graph is built again to
// name the rules of a cycle, its deposed keys are those of the first build.
func TestOrderWithRulesKeepsDeposedKeys(t *testing.T) {
	// b (create_before_destroy) depends on a (delete-first): the
	// inversion of b's edges makes a cycle.
	p := buildPlan([]change{
		{name: "a", action: plan.DeleteThenCreate},
		{name: "b", action: plan.CreateThenDelete, cbd: true, deps: []string{"a"}, recorded: []string{"a"}},
	})
	calls := 0
	g, ds := OrderWith(p, OrderOptions{DeposedKeys: func(addrs.AbsResourceInstance, *state.Instance) addrs.DeposedKey {
		calls++
		return "0000beef"
	}})
	if !ds.HasErrors() {
		t.Fatal("no cycle")
	}
	b := res("b").Instance(addrs.NoKey)
	if calls != 1 || g.DeposeKeys[b] != "0000beef" || !strings.Contains(ds[0].Detail, "terraform_data.b (destroy deposed)") {
		t.Errorf("the source was asked %d times; b deposed under %q; cycle %s", calls, g.DeposeKeys[b], ds[0].Detail)
	}
}

// TestExecuteOnce: a prepared plan is applied once; executing it again is
// an error that changes nothing.
func TestExecuteOnce(t *testing.T) {
	cfg := loadConfig(t, lifecycleConfig)
	ctx := context.Background()
	set := builtinSet()
	defer set.Close()
	p, ds := planner.Make(ctx, cfg, state.New(), set, planner.Options{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	pr, ds := Prepare(cfg, p, PrepareOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	w := &memWriter{}
	if _, ds := pr.Execute(ctx, set, Options{StateWriter: w}); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	writes := w.writes
	s, ds := pr.Execute(ctx, set, Options{StateWriter: w})
	if !ds.HasErrors() || s != nil || w.writes != writes {
		t.Errorf("second Execute: state %v, %d more writes, diagnostics %v; want an error and nothing written", s, w.writes-writes, ds)
	}
}
