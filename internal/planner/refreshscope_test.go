package planner_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/zclconf/go-cty/cty"
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
		// wantCauses says why each of wantRefreshed was read back, when
		// not because every object is.
		wantCauses map[string]string
		// wantUpdates are the objects planned to change; the rest are no-ops.
		wantUpdates []string
	}{
		{name: "nothing changed, all refreshed recently", config: base, changed: true,
			times: map[string]time.Time{"test_thing.a[0]": recent, "test_thing.a[1]": recent, "test_thing.a[2]": recent, "test_thing.b": recent, "test_thing.c": recent}},
		{name: "unknown times are refreshed", config: base, changed: true,
			times:         map[string]time.Time{"test_thing.a[0]": recent, "test_thing.a[2]": recent, "test_thing.c": recent},
			wantRefreshed: []string{"test_thing.a[1]", "test_thing.b"},
			wantCauses:    map[string]string{"test_thing.a[1]": "time_unknown", "test_thing.b": "time_unknown"}},
		{name: "older than the default max_age of a day", config: base, changed: true,
			times:         map[string]time.Time{"test_thing.a[0]": fixedNow.Add(-25 * time.Hour), "test_thing.a[1]": recent, "test_thing.a[2]": recent, "test_thing.b": fixedNow.Add(-23 * time.Hour), "test_thing.c": recent},
			wantRefreshed: []string{"test_thing.a[0]"},
			wantCauses:    map[string]string{"test_thing.a[0]": "max_age"}},
		{name: "older than a max_age set", config: base, changed: true, maxAge: 30 * time.Minute,
			times:         map[string]time.Time{"test_thing.a[0]": fixedNow.Add(-20 * time.Minute), "test_thing.a[1]": recent, "test_thing.a[2]": recent, "test_thing.b": recent, "test_thing.c": recent},
			wantRefreshed: []string{"test_thing.a[1]", "test_thing.a[2]", "test_thing.b", "test_thing.c"},
			wantCauses:    map[string]string{"test_thing.a[1]": "max_age", "test_thing.a[2]": "max_age", "test_thing.b": "max_age", "test_thing.c": "max_age"}},
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
			wantCauses:    map[string]string{"test_thing.a[1]": "would_change", "test_thing.b": "would_change", "test_thing.c": "dependency_changed test_thing.b"},
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
			hooks := &scopeHooks{}
			p, ds := planner.Make(context.Background(), loadTree(t, map[string]string{"main.tf": tt.config}), prior, set,
				planner.Options{RefreshScope: scope, Now: func() time.Time { return fixedNow }, Hooks: hooks})
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			var refreshed, kept []string
			for _, r := range p.Refreshed {
				refreshed = append(refreshed, r.Addr.String())
				want, ok := tt.wantCauses[r.Addr.String()]
				if !ok {
					want = "every_object"
				}
				got := r.Cause.String()
				if r.Dependency != (addrs.AbsResource{}) {
					got += " " + r.Dependency.String()
				}
				if got != want {
					t.Errorf("%s read back because %s, want %s", r.Addr, got, want)
				}
				if at, ok := times[r.Addr]; !r.LastRefreshed.Equal(at) || !ok && !r.LastRefreshed.IsZero() {
					t.Errorf("%s read back, last refreshed %s, want %s", r.Addr, r.LastRefreshed, at)
				}
			}
			if wantMode := map[bool]plan.RefreshMode{true: plan.RefreshChanged, false: plan.RefreshAll}[tt.changed]; p.Refresh != wantMode {
				t.Errorf("plan's refresh mode %s, want %s", p.Refresh, wantMode)
			}
			// The hooks were told what would be read: the certain
			// objects, and of the maybe ones those read after all; the
			// others were reported as left as recorded.
			if got := hooks.certain + len(hooks.read); got != len(tt.wantRefreshed) {
				t.Errorf("hooks expected %d certain reads and saw %d undecided objects read, want %d in all", hooks.certain, len(hooks.read), len(tt.wantRefreshed))
			}
			if diff := cmp.Diff(len(hooks.maybe)-len(hooks.read), len(hooks.kept)); diff != "" {
				t.Errorf("undecided objects reported kept (-want +got):\n%s", diff)
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

// scopeHooks records what a plan tells plan.RefreshScopeHooks: the reads
// it expects, the undecided objects it reads after all, those it keeps.
type scopeHooks struct {
	mu      sync.Mutex
	certain int
	maybe   map[addrs.ObjectAddr]bool
	read    []addrs.ObjectAddr
	kept    []addrs.ObjectAddr
}

func (h *scopeHooks) RefreshesExpected(certain int, maybe []addrs.ObjectAddr) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.certain, h.maybe = certain, map[addrs.ObjectAddr]bool{}
	for _, a := range maybe {
		h.maybe[a] = true
	}
}

func (h *scopeHooks) NotRefreshed(addr addrs.ObjectAddr, _ time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.kept = append(h.kept, addr)
}

func (h *scopeHooks) PreRefresh(addr addrs.ObjectAddr, _ cty.Value) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.maybe[addr] {
		h.read = append(h.read, addr)
	}
}

func (h *scopeHooks) PostRefresh(addrs.ObjectAddr, cty.Value) {}
