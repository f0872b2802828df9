package apply

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// operationHooks records how the hooks saw each operation start and end:
// "start create test_thing.a", "complete create test_thing.a",
// "errored update test_thing.a", "start no-op test_thing.a".
type operationHooks struct {
	NoHooks
	mu     sync.Mutex
	events []string
}

func (h *operationHooks) add(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, s)
}

func (h *operationHooks) PreApply(op Operation) {
	h.add("start " + op.Action.String() + " " + op.Addr.String())
}

func (h *operationHooks) PostApply(op Operation, res Result) {
	end := "complete "
	if res.Err != nil {
		end = "errored "
	}
	h.add(end + op.Action.String() + " " + op.Addr.String())
}

// of returns the events about addr, in order.
func (h *operationHooks) of(addr string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if strings.HasSuffix(e, " "+addr) {
			out = append(out, e)
		}
	}
	return out
}

// checkResults returns the state's check_results as "CONFIG: STATUS
// [OBJECT: STATUS MESSAGES…]…", one a line, as OpenTofu writes them.
func checkResults(t *testing.T, s *state.State) []string {
	t.Helper()
	var results []struct {
		ConfigAddr string `json:"config_addr"`
		Status     string `json:"status"`
		Objects    []struct {
			ObjectAddr      string   `json:"object_addr"`
			Status          string   `json:"status"`
			FailureMessages []string `json:"failure_messages"`
		} `json:"objects"`
	}
	if err := json.Unmarshal(s.CheckResults, &results); err != nil {
		t.Fatalf("check_results %s: %v", s.CheckResults, err)
	}
	var out []string
	for _, r := range results {
		line := r.ConfigAddr + ": " + r.Status
		for _, o := range r.Objects {
			line += " [" + strings.Join(append([]string{o.ObjectAddr + ": " + o.Status}, o.FailureMessages...), " ") + "]"
		}
		out = append(out, line)
	}
	return out
}

// TestPostconditionFailsAfterTheOperation: a postcondition that only the
// applied object can decide fails after a create or an update as OpenTofu
// reports it: the operation is complete (the hooks, so the UI and the JSON
// stream, say so), the object is recorded as it is, not tainted, the
// failed condition is an error and in the state's check results, and what
// depends on the object never starts, while the rest goes on.
func TestPostconditionFailsAfterTheOperation(t *testing.T) {
	const before = `
resource "test_thing" "a" {
  key   = "a"
  value = "0"
}
`
	cfg := func(value string) string {
		return `
resource "test_thing" "a" {
  key   = "a"
  value = "` + value + `"
  lifecycle {
    postcondition {
      condition     = self.output == "expected"
      error_message = "The output of a is ${self.output}."
    }
  }
}
resource "test_thing" "dependent" {
  key   = "dependent"
  value = test_thing.a.id
}
resource "test_thing" "other" {
  key = "other"
}
`
	}
	tests := []struct {
		name   string
		before string
		action providertest.Action
		verb   string
	}{
		{name: "create", action: providertest.Create, verb: "create"},
		{name: "update", before: before, action: providertest.Update, verb: "update"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScenario(t)
			if tt.before != "" {
				s.mustStep(tt.before, plan.NormalMode)
			}
			h := &operationHooks{}
			s.hooks = h
			_, ops, ds := s.step(cfg("1"), plan.NormalMode)
			want := []string{"error: Resource postcondition failed: The output of a is 1."}
			if diff := cmp.Diff(want, summaries(ds)); diff != "" {
				t.Errorf("apply diagnostics (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"start " + tt.verb + " test_thing.a", "complete " + tt.verb + " test_thing.a"}, h.of("test_thing.a")); diff != "" {
				t.Errorf("hooks (-want +got):\n%s", diff)
			}
			var got []string
			for _, o := range ops {
				got = append(got, o.String())
			}
			slices.Sort(got)
			wantOps := []string{tt.verb + " a", "create other"}
			slices.Sort(wantOps)
			if diff := cmp.Diff(wantOps, got); diff != "" {
				t.Errorf("operations the provider saw (-want +got):\n%s", diff)
			}
			obj := s.state.Object(addrsObj("a"))
			if obj == nil || obj.Status != state.Ready {
				t.Fatalf("test_thing.a recorded as %+v, want the applied object, not tainted", obj)
			}
			if !strings.Contains(string(obj.AttrsJSON), `"output":"1"`) {
				t.Errorf("test_thing.a recorded %s, want the applied object", obj.AttrsJSON)
			}
			wantResults := []string{"test_thing.a: fail [test_thing.a: fail The output of a is 1.]"}
			if diff := cmp.Diff(wantResults, checkResults(t, s.state)); diff != "" {
				t.Errorf("check_results (-want +got):\n%s", diff)
			}
			// Once the condition holds, the dependent is created.
			s.converge(cfg("expected"))
		})
	}
}

// TestUnchangedObjectConditionsCheckedAtApply: the conditions of an
// object with no change whose values were unknown at plan (they refer to
// an object created in the same run) are evaluated once that object
// exists, before what depends on the unchanged object runs, with no
// provider call and nothing for the hooks to show: a failure is an error
// that stops the dependents, a pass lets them run; the state's check
// results say which. A precondition of a create that the plan could not
// decide is evaluated before the create starts, which it stops.
func TestUnchangedObjectConditionsCheckedAtApply(t *testing.T) {
	const before = `
resource "test_thing" "a" {
  key = "a"
}
`
	cfg := func(want string) string {
		return `
resource "test_thing" "new" {
  key = "new"
}
resource "test_thing" "a" {
  key = "a"
  lifecycle {
    postcondition {
      condition     = test_thing.new.id == "` + want + `"
      error_message = "a: new has id ${test_thing.new.id}."
    }
  }
}
resource "test_thing" "dependent" {
  key   = "dependent"
  value = test_thing.a.id
}
resource "test_thing" "guarded" {
  key = "guarded"
  lifecycle {
    precondition {
      condition     = test_thing.new.id == "` + want + `"
      error_message = "guarded: new has id ${test_thing.new.id}."
    }
  }
}
`
	}
	tests := []struct {
		name        string
		want        string // the id the conditions expect; new gets id-2
		wantDiags   []string
		wantOps     string
		wantResults []string
	}{
		{name: "fail", want: "id-9",
			wantDiags: []string{
				"error: Resource postcondition failed: a: new has id id-2.",
				"error: Resource precondition failed: guarded: new has id id-2.",
			},
			wantOps: "create new",
			wantResults: []string{
				"test_thing.a: fail [test_thing.a: fail a: new has id id-2.]",
				"test_thing.guarded: fail [test_thing.guarded: fail guarded: new has id id-2.]",
			}},
		{name: "pass", want: "id-2",
			wantOps:     "create dependent; create guarded; create new",
			wantResults: []string{"test_thing.a: pass [test_thing.a: pass]", "test_thing.guarded: pass [test_thing.guarded: pass]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScenario(t)
			s.mustStep(before, plan.NormalMode)
			p, ds := s.plan(cfg(tt.want), plan.NormalMode)
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if act, _ := s.action(thing("a"), p); act != plan.NoOp {
				t.Fatalf("test_thing.a planned %v, want no-op", act)
			}
			g, ds := Order(p)
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			check := Op{Addr: thing("a"), Kind: OpCreate}
			if g.Verb(check) != "check" {
				t.Fatalf("no check of test_thing.a in the operation graph: %v", g.G.Nodes())
			}
			h := &operationHooks{}
			s.hooks = h
			ops, ds := s.apply(cfg(tt.want), p)
			got := summaries(ds)
			slices.Sort(got)
			if diff := cmp.Diff(tt.wantDiags, got); diff != "" {
				t.Errorf("apply diagnostics (-want +got):\n%s", diff)
			}
			var names []string
			for _, o := range ops {
				names = append(names, o.String())
			}
			slices.Sort(names)
			if got := strings.Join(names, "; "); got != tt.wantOps {
				t.Errorf("operations the provider saw: %s, want %s", got, tt.wantOps)
			}
			if tt.name == "pass" {
				// The dependent waited for the check, which waited for new.
				newOp, _ := s.prov.Find("new", providertest.Create)
				dep, _ := s.prov.Find("dependent", providertest.Create)
				if !providertest.Before(newOp, dep) {
					t.Errorf("dependent (%d-%d) did not wait for new (%d-%d)", dep.Start, dep.End, newOp.Start, newOp.End)
				}
			}
			if diff := cmp.Diff([]string{"start no-op test_thing.a", "complete no-op test_thing.a"}, h.of("test_thing.a")); diff != "" {
				t.Errorf("hooks for the check (-want +got):\n%s", diff)
			}
			if events := h.of("test_thing.guarded"); tt.name == "fail" && len(events) != 0 {
				t.Errorf("the create stopped by its precondition was announced: %v", events)
			}
			if diff := cmp.Diff(tt.wantResults, checkResults(t, s.state)); diff != "" {
				t.Errorf("check_results (-want +got):\n%s", diff)
			}
			if s.state.Object(addrs.ObjectAddr{Instance: thing("a")}) == nil {
				t.Error("test_thing.a is no longer recorded")
			}
		})
	}
}
