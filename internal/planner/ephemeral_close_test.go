package planner_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// slowPlanner is the test provider whose plan of the test_thing keyed
// "slow" waits until done says so (at most ten seconds, or until the plan
// is interrupted), then notes the test_token calls made by then.
type slowPlanner struct {
	*providertest.Provider
	done   func([]providertest.EphemeralCall) bool
	mu     *sync.Mutex
	before *[]string
	// waiting is closed when the slow plan starts waiting.
	waiting chan struct{}
}

func (p slowPlanner) PlanResourceChange(ctx context.Context, req provider.PlanRequest) provider.PlanResponse {
	if k := req.Config.GetAttr("key"); !k.IsNull() && k.AsString() == "slow" {
		close(p.waiting)
		deadline := time.Now().Add(10 * time.Second)
		for !p.done(p.Ephemerals()) && time.Now().Before(deadline) && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
		p.mu.Lock()
		for _, c := range p.Ephemerals() {
			*p.before = append(*p.before, c.String())
		}
		p.mu.Unlock()
	}
	return p.Provider.PlanResourceChange(ctx, req)
}

func hasCall(calls []providertest.EphemeralCall, want ...string) bool {
	for _, w := range want {
		if !slices.ContainsFunc(calls, func(c providertest.EphemeralCall) bool { return c.String() == w }) {
			return false
		}
	}
	return true
}

// TestEphemeralClosedAfterLastUser plans ephemeral resources beside an
// unrelated resource whose planning takes long: each ephemeral resource is
// closed as soon as what uses it is planned (one nothing uses, once
// opened; one another's configuration uses, before that one), while the
// unrelated plan is still running; one a provider is configured from stays
// open to the end of the plan. Every one opened is closed once, also when
// a user fails or the plan is interrupted.
func TestEphemeralClosedAfterLastUser(t *testing.T) {
	const src = `
ephemeral "test_token" "a" { name = "a" }
ephemeral "test_token" "unused" { name = "unused" }
ephemeral "test_token" "inner" { name = "inner" }
ephemeral "test_token" "outer" { name = "outer-${length(ephemeral.test_token.inner.secret)}" }
locals { outer = ephemeral.test_token.outer.secret }
ephemeral "test_token" "prov" { name = "prov" }
provider "test" {
  alias  = "p"
  region = ephemeral.test_token.prov.secret
}
resource "test_thing" "user" {
  key = "user"
  lifecycle {
    precondition {
      condition     = ephemeral.test_token.a.secret != "" && local.outer != "" && var.ok
      error_message = "Not ok."
    }
  }
}
resource "test_thing" "via_provider" {
  provider = test.p
  key      = "via"
}
resource "test_thing" "slow" { key = "slow" }
variable "ok" {
  type    = bool
  default = true
}
`
	early := []string{"close a", "close unused", "close outer-11", "close inner"}
	cases := []struct {
		name      string
		ok        bool
		interrupt bool
		// closedBefore are the closes made before the slow plan ended.
		closedBefore []string
	}{
		{name: "closed after the last user", ok: true, closedBefore: early},
		{name: "a user fails", ok: false, closedBefore: []string{"close unused"}},
		{name: "interrupted", ok: true, interrupt: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			live := providertest.New()
			var before []string
			sp := slowPlanner{Provider: live, mu: &sync.Mutex{}, before: &before, waiting: make(chan struct{}),
				done: func(calls []providertest.EphemeralCall) bool {
					return hasCall(calls, tc.closedBefore...) && !tc.interrupt
				}}
			set := provider.NewSet(provider.Factories{providertest.Address(): func() (provider.Interface, error) { return sp, nil }})
			defer set.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.interrupt {
				go func() { <-sp.waiting; cancel() }()
			}
			vars := map[string]planner.InputValue{"ok": {Value: cty.BoolVal(tc.ok), SourceType: "-var"}}
			_, ds := planner.Make(ctx, loadConfig(t, src), state.New(), set, planner.Options{Variables: vars})
			// An interrupted plan ends with an error, also when the
			// interrupt came after its last node started.
			if wantErrors := !tc.ok || tc.interrupt; ds.HasErrors() != wantErrors {
				t.Fatalf("errors %v, want errors: %v", ds, wantErrors)
			}
			if tc.interrupt && !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Summary == "Operation cancelled" }) {
				t.Fatalf("diagnostics %v do not report the interruption", ds)
			}
			calls := live.Ephemerals()
			opened, closed := map[string]int{}, map[string]int{}
			for _, c := range calls {
				if c.Call == "open" {
					opened[c.Name]++
				} else {
					closed[c.Name]++
				}
			}
			for name, n := range opened {
				if n != 1 || closed[name] != 1 {
					t.Errorf("%s opened %d times, closed %d times: %v", name, n, closed[name], calls)
				}
			}
			sp.mu.Lock()
			defer sp.mu.Unlock()
			for _, c := range tc.closedBefore {
				if !slices.Contains(before, c) {
					t.Errorf("%q not made while the unrelated plan ran (calls by then: %s)", c, strings.Join(before, ", "))
				}
			}
			if slices.Contains(before, "close prov") {
				t.Errorf("the token a provider is configured from closed before the plan ended: %s", strings.Join(before, ", "))
			}
			if tc.ok && !tc.interrupt {
				if i, j := slices.IndexFunc(calls, isCall("close outer-11")), slices.IndexFunc(calls, isCall("close inner")); i > j {
					t.Errorf("inner closed before outer, which its configuration used: %v", calls)
				}
			}
		})
	}
}

func isCall(s string) func(providertest.EphemeralCall) bool {
	return func(c providertest.EphemeralCall) bool { return c.String() == s }
}
