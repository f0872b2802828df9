package apply

import (
	"context"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// liar is the test provider with a bug: it plans, or applies, a value other
// than the configured one. legacy says it claims the legacy SDK type system.
type liar struct {
	*providertest.Provider
	lieInPlan, lieInApply, legacy bool
}

func (l liar) PlanResourceChange(ctx context.Context, req provider.PlanRequest) provider.PlanResponse {
	resp := l.Provider.PlanResourceChange(ctx, req)
	if l.lieInPlan && !resp.PlannedState.IsNull() {
		resp.PlannedState = withValue(resp.PlannedState, "lie")
	}
	resp.LegacyTypeSystem = l.legacy
	return resp
}

func (l liar) ApplyResourceChange(ctx context.Context, req provider.ApplyRequest) provider.ApplyResponse {
	resp := l.Provider.ApplyResourceChange(ctx, req)
	if l.lieInApply && !resp.NewState.IsNull() {
		resp.NewState = withValue(resp.NewState, "lie")
	}
	resp.LegacyTypeSystem = l.legacy
	return resp
}

func withValue(obj cty.Value, v string) cty.Value {
	m := obj.AsValueMap()
	m["value"] = cty.StringVal(v)
	return cty.ObjectVal(m)
}

func TestProviderResultChecks(t *testing.T) {
	const src = `resource "test_thing" "a" { value = "x" }`
	tests := []struct {
		name      string
		liar      liar
		planErr   string
		applyErr  string
		wantState state.ObjectStatus
	}{
		{name: "honest", wantState: state.Ready},
		{name: "invalid plan", liar: liar{lieInPlan: true},
			planErr: `Provider produced invalid plan; Provider "hashicorp/test" planned an invalid value for test_thing.a.value: planned value cty.StringVal("lie") does not match config value cty.StringVal("x").`},
		{name: "invalid plan from a legacy provider", liar: liar{lieInPlan: true, legacy: true}, wantState: state.Ready},
		{name: "inconsistent result", liar: liar{lieInApply: true}, wantState: state.Tainted,
			applyErr: `Provider produced inconsistent result after apply; When applying changes to test_thing.a, provider "hashicorp/test" produced an unexpected new value: .value: was cty.StringVal("x"), but now cty.StringVal("lie").`},
		{name: "inconsistent result from a legacy provider", liar: liar{lieInApply: true, legacy: true}, wantState: state.Ready},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScenario(t)
			l := tt.liar
			l.Provider = s.prov
			cfg := loadConfig(t, src)
			factories := s.factories()
			factories[providertest.Address()] = func() (provider.Interface, error) { return l, nil }
			set := provider.NewSet(factories)
			defer set.Close()
			p, ds := planner.Make(context.Background(), cfg, s.state, set, planner.Options{})
			if got := firstError(ds); got != tt.planErr {
				t.Fatalf("plan error = %q, want %q", got, tt.planErr)
			}
			if tt.planErr != "" {
				return
			}
			st, ds := Apply(context.Background(), cfg, p, set, Options{StateWriter: s})
			if got := firstError(ds); got != tt.applyErr {
				t.Fatalf("apply error = %q, want %q", got, tt.applyErr)
			}
			obj := st.Object(addrs.ObjectAddr{Instance: thing("a")})
			if obj == nil {
				t.Fatal("test_thing.a not in state")
			}
			if obj.Status != tt.wantState {
				t.Errorf("status = %v, want %v", obj.Status, tt.wantState)
			}
		})
	}
}

// firstError returns the first error diagnostic as "summary; detail" with
// the provider's boilerplate advice cut, or "" if there is none.
func firstError(ds diag.Diagnostics) string {
	errs := ds.Errors()
	if len(errs) == 0 {
		return ""
	}
	s, _, _ := strings.Cut(errs[0].Summary+"; "+errs[0].Detail, "\n\n")
	return s
}
