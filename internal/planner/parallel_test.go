package planner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// loadTree loads a configuration tree from files (module directories are
// paths: "m/main.tf").
func loadTree(t *testing.T, files map[string]string) *config.Module {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src), Mode: 0o644}
	}
	cfg, ds := config.LoadTreeFS(fsys, config.TreeOptions{})
	if ds.HasErrors() {
		t.Fatalf("configuration does not load: %v", ds.Err())
	}
	return cfg
}

// twentyKeys is a for_each set of 20 keys.
var twentyKeys = func() string {
	var keys []string
	for i := range 20 {
		keys = append(keys, fmt.Sprintf("%q", fmt.Sprintf("k%02d", i)))
	}
	return "toset([" + strings.Join(keys, ", ") + "])"
}()

// TestPlanCallsRunInParallel: the reads (and plans) of the instances of one
// resource — count, for_each, data sources, refresh-only plans, a module
// called with count, orphans, a destroy — run at once, as many as
// -parallelism allows, never more. Each call is held until -parallelism
// calls wait together, which a planner calling the provider for one
// instance after another never reaches: its plan then fails when its
// context ends (a guard against hanging, not a measurement of time).
func TestPlanCallsRunInParallel(t *testing.T) {
	counted := map[string]string{"main.tf": `
resource "test_thing" "a" {
  count = 20
  key   = "a${count.index}"
}`}
	tests := []struct {
		name string
		// setup is applied first (nil: nothing); planned is then planned.
		setup, planned map[string]string
		opts           planner.Options
		// calls picks the calls to hold and count.
		calls func(live *providertest.Provider, echo *providertest.InFlight) *providertest.InFlight
		// limit, when set, is the most calls opts.Limits allow at once.
		limit int
	}{
		{name: "count reads", setup: counted, planned: counted,
			calls: func(l *providertest.Provider, _ *providertest.InFlight) *providertest.InFlight { return &l.Reads }},
		{name: "count plans without refresh", setup: counted, planned: counted, opts: planner.Options{SkipRefresh: true},
			calls: func(l *providertest.Provider, _ *providertest.InFlight) *providertest.InFlight { return &l.Plans }},
		{name: "count creates", planned: counted,
			calls: func(l *providertest.Provider, _ *providertest.InFlight) *providertest.InFlight { return &l.Plans }},
		{name: "for_each reads",
			setup: map[string]string{"main.tf": `
resource "test_thing" "a" {
  for_each = ` + twentyKeys + `
  key      = each.key
}`},
			planned: map[string]string{"main.tf": `
resource "test_thing" "a" {
  for_each = ` + twentyKeys + `
  key      = each.key
}`},
			calls: func(l *providertest.Provider, _ *providertest.InFlight) *providertest.InFlight { return &l.Reads }},
		{name: "data source reads",
			planned: map[string]string{"main.tf": `
data "test_echo" "d" {
  count = 20
  input = "d${count.index}"
}`},
			calls: func(_ *providertest.Provider, echo *providertest.InFlight) *providertest.InFlight { return echo }},
		{name: "refresh-only reads", setup: counted, planned: counted, opts: planner.Options{Mode: plan.RefreshOnlyMode},
			calls: func(l *providertest.Provider, _ *providertest.InFlight) *providertest.InFlight { return &l.Reads }},
		{name: "reads in the instances of a module called with count",
			setup: map[string]string{
				"main.tf": `
module "m" {
  source = "./m"
  count  = 20
  key    = "m${count.index}"
}`,
				"m/main.tf": `
variable "key" {}
resource "test_thing" "a" { key = var.key }`},
			planned: nil, // the same
			calls:   func(l *providertest.Provider, _ *providertest.InFlight) *providertest.InFlight { return &l.Reads }},
		{name: "orphan reads", setup: counted, planned: map[string]string{"main.tf": `resource "test_thing" "b" { key = "b" }`},
			calls: func(l *providertest.Provider, _ *providertest.InFlight) *providertest.InFlight { return &l.Reads }},
		{name: "reads within a limit", setup: counted, planned: counted, opts: planner.Options{Limits: []plan.Limit{{Name: "test_thing", N: 4}}}, limit: 4,
			calls: func(l *providertest.Provider, _ *providertest.InFlight) *providertest.InFlight { return &l.Reads }},
		{name: "destroy reads", setup: counted, planned: counted, opts: planner.Options{Mode: plan.DestroyMode},
			calls: func(l *providertest.Provider, _ *providertest.InFlight) *providertest.InFlight { return &l.Reads }},
	}
	for _, tt := range tests {
		for _, parallelism := range []int{1, 10} {
			t.Run(fmt.Sprintf("%s/parallelism=%d", tt.name, parallelism), func(t *testing.T) {
				t.Parallel()
				live := providertest.New()
				echo := &providertest.InFlight{}
				prior := state.New()
				if tt.setup != nil {
					prior = applyAll(t, live, loadTree(t, tt.setup))
				}
				planned := tt.planned
				if planned == nil {
					planned = tt.setup
				}
				cfg := loadTree(t, planned)
				calls := tt.calls(live, echo)
				want := parallelism
				if tt.limit > 0 {
					want = min(want, tt.limit)
				}
				calls.HoldUntil(want)
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				set := providerSetRecording(live, echo)
				defer set.Close()
				opts := tt.opts
				opts.Parallelism, opts.Now = parallelism, func() time.Time { return fixedNow }
				_, ds := planner.Make(ctx, cfg, prior, set, opts)
				if ds.HasErrors() {
					t.Fatalf("plan: %v (the calls never had %d in flight at once)", ds.Err(), want)
				}
				if got := calls.Max(); got != want {
					t.Errorf("%d calls in flight at once, want %d", got, want)
				}
				if n := calls.Total(); n != 20 {
					t.Errorf("%d calls, want one for each of the 20 objects", n)
				}
			})
		}
	}
}

// applyAll plans and applies cfg from an empty state against live.
func applyAll(t *testing.T, live *providertest.Provider, cfg *config.Module) *state.State {
	t.Helper()
	set := providerSet(live)
	defer set.Close()
	p, ds := planner.Make(context.Background(), cfg, state.New(), set, planner.Options{Now: func() time.Time { return fixedNow }})
	if ds.HasErrors() {
		t.Fatalf("plan: %v", ds.Err())
	}
	st, ds := apply.Apply(context.Background(), cfg, p, set, apply.Options{})
	if ds.HasErrors() {
		t.Fatalf("apply: %v", ds.Err())
	}
	return st
}

// TestParallelPlanDiagnosticsInKeyOrder: the instances of a resource are
// planned at once and finish in any order (ten at a time are let go
// together from the provider's barrier), but their problems are reported
// in the order of their keys, as when they were planned one after another.
func TestParallelPlanDiagnosticsInKeyOrder(t *testing.T) {
	cfg := loadTree(t, map[string]string{"main.tf": `
resource "test_thing" "a" {
  count = 20
  key   = "a${count.index}"
  lifecycle {
    postcondition {
      condition     = count.index % 2 == 0
      error_message = "odd ${count.index}"
    }
  }
}`})
	var want []string
	for i := 1; i < 20; i += 2 {
		want = append(want, fmt.Sprintf("odd %d", i))
	}
	for range 5 {
		live := providertest.New()
		live.Plans.HoldUntil(10)
		set := providerSet(live)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		_, ds := planner.Make(ctx, cfg, state.New(), set, planner.Options{Parallelism: 10, Now: func() time.Time { return fixedNow }})
		cancel()
		set.Close()
		var got []string
		for _, d := range ds {
			got = append(got, d.Detail)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("diagnostics (-want +got):\n%s", diff)
		}
	}
}
