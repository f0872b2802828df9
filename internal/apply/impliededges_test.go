package apply

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// TestImpliedEdgesKeepOrderThroughIdleMiddle runs plans where c depends on
// a only through b (OpenTofu records both), and b has no create of its
// own: then nothing but the edge from a orders c after a, and it must stay.
// a's apply is slow, so a c that did not wait for it would finish first.
func TestImpliedEdgesKeepOrderThroughIdleMiddle(t *testing.T) {
	a := thingSpec{name: "a", value: "1"}
	b := thingSpec{name: "b", value: "1", refs: []string{"a"}}
	c := thingSpec{name: "c", value: "1", refs: []string{"b"}}
	with := func(ts thingSpec, f func(*thingSpec)) thingSpec { f(&ts); return ts }
	updated := func(ts thingSpec) thingSpec { return with(ts, func(t *thingSpec) { t.value = "2" }) }
	tests := []struct {
		name          string
		before, after string
		slow          string
		slowAction    providertest.Action
		want          string
	}{
		{name: "middle unchanged", before: things(a, b, c), after: things(updated(a), b, updated(c)),
			slow: "a", slowAction: providertest.Update, want: "update a; update c"},
		// b is gone: c no longer refers to it but recorded it (and a), so
		// it waits for b's delete and for a's update, which b's delete
		// precedes; only the edge from a orders a before c.
		{name: "middle deleted", before: things(a, b, c), after: things(updated(a), with(updated(c), func(t *thingSpec) { t.refs = nil })),
			slow: "a", slowAction: providertest.Update, want: "delete b; update a; update c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScenario(t)
			s.parallelism = 4
			s.mustStep(tt.before, plan.NormalMode)
			s.prov.SleepOn(tt.slow, tt.slowAction, 150*time.Millisecond)
			_, ops := s.mustStep(tt.after, plan.NormalMode)
			checkSequence(t, ops, tt.want)
		})
	}
}

// TestImpliedEdgesLeftOut checks that a chain's transitive dependencies
// add no edge to the apply's graph: c waits for a through b alone.
func TestImpliedEdgesLeftOut(t *testing.T) {
	p := buildPlan([]change{
		{name: "a", action: plan.Create},
		{name: "b", action: plan.Create, deps: []string{"a"}},
		{name: "c", action: plan.Create, deps: []string{"a", "b"}},
		{name: "d", action: plan.Create, deps: []string{"a", "b", "c"}},
	})
	full := mustOrder(t, p, OrderOptions{})
	omit := mustOrder(t, p, OrderOptions{OmitImplied: true})
	if got, want := full.G.EdgeCount(), 6; got != want {
		t.Fatalf("full graph has %d edges, want %d", got, want)
	}
	if got, want := omit.G.EdgeCount(), 3; got != want {
		t.Fatalf("graph without implied edges has %d edges, want %d", got, want)
	}
	if got, want := stepsOf(omit), "create a | create b | create c | create d"; got != want {
		t.Fatalf("waves %q, want %q", got, want)
	}
}

// TestImpliedEdgesKeepReachability plans random changes to random
// configurations, with dependencies recorded transitively, and checks that
// the graph without implied edges orders every pair of operations exactly
// as the full graph does.
func TestImpliedEdgesKeepReachability(t *testing.T) {
	seeds := 150
	if testing.Short() {
		seeds = 30
	}
	for seed := range seeds {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(seed), 7))
			v1 := randomFirst(r)
			v2 := randomNext(r, v1)
			s := newScenario(t)
			for _, step := range []struct {
				cfg  randomConfig
				mode plan.Mode
			}{{v1, plan.NormalMode}, {v2, plan.NormalMode}, {v2, plan.DestroyMode}} {
				src := step.cfg.hcl()
				p, ds := s.plan(src, step.mode)
				if ds.HasErrors() {
					t.Fatalf("plan: %v", ds.Err())
				}
				full, fds := OrderWith(p, OrderOptions{DeposedKeys: SequentialDeposedKeys()})
				omit, ods := OrderWith(p, OrderOptions{DeposedKeys: SequentialDeposedKeys(), OmitImplied: true})
				if fds.HasErrors() != ods.HasErrors() {
					t.Fatalf("cycles: full graph %v, without implied edges %v", fds.Err(), ods.Err())
				}
				if fds.HasErrors() {
					return
				}
				if omit.G.EdgeCount() > full.G.EdgeCount() {
					t.Errorf("%d edges without implied ones, %d in the full graph", omit.G.EdgeCount(), full.G.EdgeCount())
				}
				compareReach(t, full, omit)
				if t.Failed() {
					t.Fatalf("config:\n%s", src)
				}
				s.mustStep(src, step.mode)
			}
		})
	}
}

// compareReach fails unless the operations of full and omit precede the
// same operations.
func compareReach(t *testing.T, full, omit *Graph) {
	t.Helper()
	ops := full.G.Nodes()
	for _, from := range ops {
		if from.IsBarrier() {
			continue
		}
		want, got := reachable(full.G, from), reachable(omit.G, from)
		for _, to := range ops {
			if to.IsBarrier() || to == from {
				continue
			}
			if want[to] != got[to] {
				t.Errorf("%s before %s: %v in the full graph, %v without implied edges", from, to, want[to], got[to])
			}
		}
	}
}

// reachable returns the nodes reachable from op in g.
func reachable(g *dag.Graph[Op], op Op) map[Op]bool {
	seen := map[Op]bool{}
	stack := []Op{op}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range g.Successors(n) {
			if !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return seen
}

func mustOrder(t *testing.T, p *plan.Plan, opts OrderOptions) *Graph {
	t.Helper()
	g, ds := OrderWith(p, opts)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return g
}

// TestImpliedEdgesKeepCycles: dependencies recorded by an earlier run can
// make the creates and updates of a plan wait for each other; the graph
// without implied edges must still hold the cycle, and OrderWith report it.
func TestImpliedEdgesKeepCycles(t *testing.T) {
	p := buildPlan([]change{
		{name: "d", action: plan.Update},
		{name: "e", action: plan.Update, deps: []string{"d"}, recorded: []string{"d", "x"}},
		{name: "x", action: plan.Update, deps: []string{"d", "e"}, recorded: []string{"d", "e"}},
	})
	for _, omit := range []bool{false, true} {
		if _, ds := OrderWith(p, OrderOptions{OmitImplied: omit}); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "ycle") {
			t.Errorf("OmitImplied %v: diagnostics %v, want a cycle", omit, ds.Err())
		}
	}
}
