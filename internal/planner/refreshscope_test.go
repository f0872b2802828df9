package planner_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// TestRefreshChanged: a -refresh=changed plan reads back only the objects
// whose last refresh is unknown or older than max_age, those the plan
// changes, and those whose dependencies change; it plans the others as
// recorded and lists them with their last refresh time.
func TestRefreshChanged(t *testing.T) {
	const base = `
resource "test_thing" "a" {
  count = 3
  key   = "a${count.index}"
}
resource "test_thing" "b" {
  key = "b"
}
resource "test_thing" "c" {
  key        = "c"
  depends_on = [test_thing.b]
}
`
	recent := fixedNow.Add(-time.Hour)
	all := []string{"test_thing.a[0]", "test_thing.a[1]", "test_thing.a[2]", "test_thing.b", "test_thing.c"}
	tests := []struct {
		name    string
		config  string
		changed bool
		maxAge  time.Duration
		// times are the last refresh times known; the rest are unknown.
		times         map[string]time.Time
		wantRefreshed []string
		// wantUpdates are the objects planned to change; the rest are no-ops.
		wantUpdates []string
	}{
		{name: "nothing changed, all refreshed recently", config: base, changed: true,
			times: map[string]time.Time{"test_thing.a[0]": recent, "test_thing.a[1]": recent, "test_thing.a[2]": recent, "test_thing.b": recent, "test_thing.c": recent}},
		{name: "unknown times are refreshed", config: base, changed: true,
			times:         map[string]time.Time{"test_thing.a[0]": recent, "test_thing.a[2]": recent, "test_thing.c": recent},
			wantRefreshed: []string{"test_thing.a[1]", "test_thing.b"}},
		{name: "older than the default max_age of a day", config: base, changed: true,
			times:         map[string]time.Time{"test_thing.a[0]": fixedNow.Add(-25 * time.Hour), "test_thing.a[1]": recent, "test_thing.a[2]": recent, "test_thing.b": fixedNow.Add(-23 * time.Hour), "test_thing.c": recent},
			wantRefreshed: []string{"test_thing.a[0]"}},
		{name: "older than a max_age set", config: base, changed: true, maxAge: 30 * time.Minute,
			times:         map[string]time.Time{"test_thing.a[0]": fixedNow.Add(-20 * time.Minute), "test_thing.a[1]": recent, "test_thing.a[2]": recent, "test_thing.b": recent, "test_thing.c": recent},
			wantRefreshed: []string{"test_thing.a[1]", "test_thing.a[2]", "test_thing.b", "test_thing.c"}},
		{name: "a changed configuration and what depends on it", changed: true,
			config: `
resource "test_thing" "a" {
  count = 3
  key   = "a${count.index}"
  value = count.index == 1 ? "new" : null
}
resource "test_thing" "b" {
  key   = "b"
  value = "new"
}
resource "test_thing" "c" {
  key        = "c"
  depends_on = [test_thing.b]
}
`,
			times:         map[string]time.Time{"test_thing.a[0]": recent, "test_thing.a[1]": recent, "test_thing.a[2]": recent, "test_thing.b": recent, "test_thing.c": recent},
			wantRefreshed: []string{"test_thing.a[1]", "test_thing.b", "test_thing.c"},
			wantUpdates:   []string{"test_thing.a[1]", "test_thing.b"}},
		{name: "without -refresh=changed everything is refreshed", config: base, changed: false,
			times:         map[string]time.Time{"test_thing.a[0]": recent, "test_thing.a[1]": recent, "test_thing.a[2]": recent, "test_thing.b": recent, "test_thing.c": recent},
			wantRefreshed: all},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			live := providertest.New()
			prior := applyAll(t, live, loadTree(t, map[string]string{"main.tf": base}))
			set := providerSet(live)
			defer set.Close()
			times := map[addrs.ObjectAddr]time.Time{}
			for a, at := range tt.times {
				inst, err := addrs.ParseAbsResourceInstanceStr(a)
				if err != nil {
					t.Fatal(err)
				}
				times[addrs.ObjectAddr{Instance: inst}] = at
			}
			scope := &planner.RefreshScope{Changed: tt.changed, MaxAge: tt.maxAge, Now: fixedNow,
				LastRefreshed: func(a addrs.ObjectAddr) (time.Time, bool) { at, ok := times[a]; return at, ok }}
			reads := live.Reads.Total()
			p, ds := planner.Make(context.Background(), loadTree(t, map[string]string{"main.tf": tt.config}), prior, set, planner.Options{RefreshScope: scope, Now: func() time.Time { return fixedNow }})
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			var refreshed, kept []string
			for _, a := range p.Refreshed {
				refreshed = append(refreshed, a.String())
			}
			for _, n := range p.NotRefreshed {
				kept = append(kept, n.Addr.String())
				if want := times[n.Addr]; !n.LastRefreshed.Equal(want) {
					t.Errorf("%s not refreshed, last refreshed %s, want %s", n.Addr, n.LastRefreshed, want)
				}
			}
			if diff := cmp.Diff(tt.wantRefreshed, refreshed); diff != "" {
				t.Errorf("refreshed (-want +got):\n%s", diff)
			}
			var wantKept []string
			for _, a := range all {
				if !slices.Contains(tt.wantRefreshed, a) {
					wantKept = append(wantKept, a)
				}
			}
			if diff := cmp.Diff(wantKept, kept); diff != "" {
				t.Errorf("not refreshed (-want +got):\n%s", diff)
			}
			if got := live.Reads.Total() - reads; got != len(tt.wantRefreshed) {
				t.Errorf("%d ReadResource calls, want %d", got, len(tt.wantRefreshed))
			}
			// The plan is the one a full refresh makes.
			for _, c := range p.Changes {
				wantAction := plan.NoOp
				if slices.Contains(tt.wantUpdates, c.Addr.String()) {
					wantAction = plan.Update
				}
				if c.Action != wantAction {
					t.Errorf("%s: %s, want %s", c.Addr, c.Action, wantAction)
				}
			}
		})
	}
}

// TestRefreshChangedFindsDrift: an object the plan would change, planned
// as recorded at first, is read back before it is planned again, so the
// plan shows what changed outside rig.
func TestRefreshChangedFindsDrift(t *testing.T) {
	live := providertest.New()
	cfg := `resource "test_thing" "a" { key = "a" }`
	prior := applyAll(t, live, loadTree(t, map[string]string{"main.tf": cfg}))
	set := providerSet(live)
	defer set.Close()
	// The object was deleted outside rig; its configuration now changes.
	for _, o := range live.Live() {
		live.RemoveLive(o.ID)
	}
	scope := &planner.RefreshScope{Changed: true, Now: fixedNow, LastRefreshed: func(addrs.ObjectAddr) (time.Time, bool) { return fixedNow, true }}
	p, ds := planner.Make(context.Background(), loadTree(t, map[string]string{"main.tf": `resource "test_thing" "a" {
  key   = "a"
  value = "v"
}`}), prior, set, planner.Options{RefreshScope: scope, Now: func() time.Time { return fixedNow }})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if len(p.Changes) != 1 || p.Changes[0].Action != plan.Create {
		t.Fatalf("changes %v, want a create of the object deleted outside rig", p.Changes)
	}
	if len(p.Drift) != 1 || len(p.NotRefreshed) != 0 {
		t.Errorf("drift %d, not refreshed %d; want the deletion found and nothing kept", len(p.Drift), len(p.NotRefreshed))
	}
}
