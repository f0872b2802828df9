package apply

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// TestEphemeralClosedAfterLastOperation applies a configuration with
// ephemeral resources beside an unrelated create that blocks: the token a
// precondition uses is closed once that resource's create has run, before
// the unrelated create ends; the one a provider is configured from, after
// the last operation of the resource that provider serves. Every token
// opened is closed once, also when the create that uses it fails or the
// apply is interrupted.
func TestEphemeralClosedAfterLastOperation(t *testing.T) {
	const src = `
ephemeral "test_token" "a" { name = "a" }
ephemeral "test_token" "prov" { name = "prov" }
provider "test" {
  alias  = "p"
  region = ephemeral.test_token.prov.secret
}
resource "test_thing" "user" {
  key = "user"
  lifecycle {
    precondition {
      condition     = ephemeral.test_token.a.secret != ""
      error_message = "No token."
    }
  }
}
resource "test_thing" "via" {
  provider = test.p
  key      = "via"
}
resource "test_thing" "slow" { key = "slow" }
`
	cases := []struct {
		name            string
		fail, interrupt bool
	}{
		{name: "closed after the last user"},
		{name: "the user fails", fail: true},
		{name: "interrupted", interrupt: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			prov := providertest.New()
			set := provider.NewSet(provider.Factories{providertest.Address(): prov.Factory()})
			defer set.Close()
			cfg := loadConfig(t, src)
			p, ds := planner.Make(context.Background(), cfg, nil, set, planner.Options{Mode: plan.NormalMode})
			if ds.HasErrors() {
				t.Fatalf("plan: %v", ds.Err())
			}
			// What planning opened and closed is not this test's concern.
			before := len(prov.Ephemerals())
			if tc.fail {
				prov.FailOn("user", providertest.Create, 1)
			}
			release := prov.BlockOn("slow", providertest.Create)
			defer release()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				<-prov.Started("slow", providertest.Create)
				if tc.interrupt {
					cancel()
					release()
					return
				}
				deadline := time.Now().Add(10 * time.Second)
				for !slices.ContainsFunc(prov.Ephemerals()[before:], isCall("close a")) && time.Now().Before(deadline) {
					time.Sleep(5 * time.Millisecond)
				}
				release()
			}()
			_, ds = Apply(ctx, loadConfig(t, src), p, set, Options{StateWriter: &memWriter{}})
			if !tc.interrupt && ds.HasErrors() != tc.fail {
				t.Fatalf("errors %v, want errors: %v", ds, tc.fail)
			}
			calls := prov.Ephemerals()[before:]
			opened, closed := map[string]int{}, map[string]int{}
			seq := map[string]int{}
			for _, c := range calls {
				seq[c.String()] = c.Seq
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
			if tc.interrupt {
				return
			}
			slow, _ := prov.Find("slow", providertest.Create)
			if seq["close a"] == 0 || seq["close a"] > slow.End {
				t.Errorf("token a closed at %d, not before the unrelated create ended (%d): %v", seq["close a"], slow.End, calls)
			}
			via, _ := prov.Find("via", providertest.Create)
			if seq["close prov"] < via.End {
				t.Errorf("token prov closed at %d, before the create its provider made ended (%d)", seq["close prov"], via.End)
			}
		})
	}
}

func isCall(s string) func(providertest.EphemeralCall) bool {
	return func(c providertest.EphemeralCall) bool { return c.String() == s }
}

// TestEphemeralConditionResultsAfterApply records in the state the results
// of the conditions of the ephemeral resources the apply opened, and
// unknown ones for those it did not need, as OpenTofu does.
func TestEphemeralConditionResultsAfterApply(t *testing.T) {
	const src = `
ephemeral "test_token" "used" {
  name = "used"
  lifecycle {
    postcondition {
      condition     = self.secret != ""
      error_message = "No secret."
    }
  }
}
ephemeral "test_token" "unused" {
  name = "unused"
  lifecycle {
    postcondition {
      condition     = self.secret != ""
      error_message = "No secret."
    }
  }
}
resource "test_thing" "user" {
  key = "user"
  lifecycle {
    precondition {
      condition     = ephemeral.test_token.used.secret != ""
      error_message = "No token."
    }
  }
}
`
	prov := providertest.New()
	set := provider.NewSet(provider.Factories{providertest.Address(): prov.Factory()})
	defer set.Close()
	p, ds := planner.Make(context.Background(), loadConfig(t, src), nil, set, planner.Options{})
	if ds.HasErrors() {
		t.Fatalf("plan: %v", ds.Err())
	}
	st, ds := Apply(context.Background(), loadConfig(t, src), p, set, Options{StateWriter: &memWriter{}})
	if ds.HasErrors() {
		t.Fatalf("apply: %v", ds.Err())
	}
	got := strings.Join(checkResults(t, st), "\n")
	for _, want := range []string{"ephemeral.test_token.used: pass [ephemeral.test_token.used: pass]",
		"ephemeral.test_token.unused: unknown [ephemeral.test_token.unused: unknown]", "test_thing.user: pass [test_thing.user: pass]"} {
		if !strings.Contains(got, want) {
			t.Errorf("check results\n%s\nlack %q", got, want)
		}
	}
}
