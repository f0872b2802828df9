package timeline

import (
	"cmp"
	"hash/fnv"
	"slices"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/plan/plantest"
)

// clock is a fake clock the tests move.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// exampleGraph returns the operation graph of plantest.Example.
func exampleGraph(t testing.TB) *apply.Graph {
	t.Helper()
	p, err := plantest.Parse(plantest.Example)
	if err != nil {
		t.Fatal(err)
	}
	g, ds := apply.Order(p)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return g
}

// operation returns what apply's hooks report of op.
func operation(g *apply.Graph, op apply.Op) apply.Operation {
	c := g.Changes[op]
	o := apply.Operation{Addr: op.Addr, Deposed: op.Deposed, Action: c.Action}
	if c.Action.IsReplace() {
		o.Replacing, o.Action = c.Action, plan.Create
		if op.Kind == apply.OpDelete {
			o.Action = plan.Delete
		}
	}
	return o
}

// simulation runs the operations of a graph on a fake clock, as the apply
// walk would: each as soon as its predecessors are done and a slot of
// parallelism (and of every limit it counts against) is free, for dur.
// An operation in fail fails, and what depends on it does not run.
type simulation struct {
	parallelism int
	limits      []apply.Limit
	limitNames  func(apply.Op) []string
	dur         func(apply.Op) time.Duration
	fail        map[string]bool
}

// run simulates g and returns the record the Recorder made of it.
func (s simulation) run(g *apply.Graph) *Record {
	c := &clock{now: t0}
	rec := NewRecorder(Options{Command: "apply", Parallelism: s.parallelism, Limits: s.limits, LimitNames: s.limitNames, Now: c.Now})
	c.now = c.now.Add(200 * time.Millisecond) // planning done
	indeg := map[apply.Op]int{}
	var ready []apply.Op
	for _, op := range g.G.Nodes() {
		indeg[op] = g.G.InDegree(op)
		if indeg[op] == 0 {
			ready = append(ready, op)
		}
	}
	limitN := map[string]int{}
	for _, l := range s.limits {
		limitN[l.Name] = l.N
	}
	type running struct {
		op  apply.Op
		end time.Time
	}
	var run []running
	busy := map[string]int{}
	free := func(op apply.Op) bool {
		if len(run) >= s.parallelism {
			return false
		}
		if s.limitNames != nil {
			for _, n := range s.limitNames(op) {
				if busy[n] >= limitN[n] {
					return false
				}
			}
		}
		return true
	}
	done := func(op apply.Op) {
		for _, succ := range g.G.Successors(op) {
			if indeg[succ]--; indeg[succ] == 0 {
				ready = append(ready, succ)
			}
		}
	}
	for len(ready) > 0 || len(run) > 0 {
		slices.SortFunc(ready, func(a, b apply.Op) int { return cmp.Compare(g.Label(a), g.Label(b)) })
		var wait []apply.Op
		for len(ready) > 0 {
			op := ready[0]
			ready = ready[1:]
			if op.IsBarrier() {
				done(op)
				continue
			}
			if !free(op) {
				wait = append(wait, op)
				continue
			}
			rec.PreApply(operation(g, op))
			if s.limitNames != nil {
				for _, n := range s.limitNames(op) {
					busy[n]++
				}
			}
			run = append(run, running{op, c.now.Add(s.dur(op))})
		}
		ready = wait
		if len(run) == 0 {
			break
		}
		slices.SortFunc(run, func(a, b running) int { return cmp.Or(a.end.Compare(b.end), cmp.Compare(g.Label(a.op), g.Label(b.op))) })
		r := run[0]
		run = run[1:]
		c.now = r.end
		var res apply.Result
		if s.fail[g.Label(r.op)] {
			res.Err = errFailed
		}
		rec.PostApply(operation(g, r.op), res)
		if s.limitNames != nil {
			for _, n := range s.limitNames(r.op) {
				busy[n]--
			}
		}
		if res.Err == nil {
			done(r.op)
		}
	}
	c.now = c.now.Add(100 * time.Millisecond)
	return rec.Finish(g)
}

type failure struct{}

func (failure) Error() string { return "failed" }

var errFailed error = failure{}

// exampleDuration gives each operation of the example a duration that
// depends on its action and, a little, on its address.
func exampleDuration(g *apply.Graph) func(apply.Op) time.Duration {
	return func(op apply.Op) time.Duration {
		c := g.Changes[op]
		d := 2 * time.Second
		switch {
		case c.Action == plan.Read:
			d = 400 * time.Millisecond
		case op.Kind == apply.OpDelete:
			d = 1500 * time.Millisecond
		case c.Action == plan.Update:
			d = time.Second
		case op.Addr.Resource.Resource.Name == "server":
			d = 6 * time.Second
		}
		h := fnv.New32a()
		h.Write([]byte(g.Label(op)))
		return d + time.Duration(h.Sum32()%7)*150*time.Millisecond
	}
}

// serverLimit counts the servers against a limit named "server".
func serverLimit(op apply.Op) []string {
	if op.Addr.Resource.Resource.Name == "server" {
		return []string{"server"}
	}
	return nil
}

// exampleRecord is the record of the example plan applied with
// -parallelism=4 and a limit of 2 servers at a time.
func exampleRecord(t testing.TB) *Record {
	g := exampleGraph(t)
	return simulation{parallelism: 4, limits: []apply.Limit{{Name: "server", N: 2}}, limitNames: serverLimit, dur: exampleDuration(g)}.run(g)
}
