package planner_test

import (
	"context"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/tools/txtar"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// world is the fake remote system and the recorded state across several
// plan-and-apply runs of changing configurations.
type world struct {
	t     *testing.T
	live  *providertest.Provider
	state *state.State
}

func newWorld(t *testing.T) *world {
	return &world{t: t, live: providertest.New(), state: state.New()}
}

func loadConfig(t *testing.T, src string) *config.Module {
	t.Helper()
	cfg, ds := config.LoadFiles(map[string][]byte{"main.tf": []byte(src)})
	if ds.HasErrors() {
		t.Fatalf("configuration does not load: %v", ds.Err())
	}
	return cfg
}

// plan plans src against the current state.
func (w *world) plan(src string, opts planner.Options) *plan.Plan {
	w.t.Helper()
	opts.Now = func() time.Time { return fixedNow }
	set := providerSet(w.live)
	defer set.Close()
	p, ds := planner.Make(context.Background(), loadConfig(w.t, src), w.state, set, opts)
	if ds.HasErrors() {
		w.t.Fatalf("plan: %v", ds.Err())
	}
	return p
}

// run plans src and applies the plan, keeping the resulting state.
func (w *world) run(src string, opts planner.Options) *plan.Plan {
	w.t.Helper()
	cfg := loadConfig(w.t, src)
	opts.Now = func() time.Time { return fixedNow }
	set := providerSet(w.live)
	defer set.Close()
	p, ds := planner.Make(context.Background(), cfg, w.state, set, opts)
	if ds.HasErrors() {
		w.t.Fatalf("plan: %v", ds.Err())
	}
	st, ds := apply.Apply(context.Background(), cfg, p, set, apply.Options{})
	if ds.HasErrors() {
		w.t.Fatalf("apply: %v", ds.Err())
	}
	w.state = st
	return p
}

// actions returns each planned object's action, by address.
func actions(p *plan.Plan) map[string]string {
	out := map[string]string{}
	for _, c := range p.Changes {
		out[c.ObjectAddr().String()] = c.Action.String()
	}
	return out
}

// liveIDs returns the id of each live object, by key.
func (w *world) liveIDs() map[string]string {
	out := map[string]string{}
	for _, o := range w.live.Live() {
		out[o.Key] = o.ID
	}
	return out
}

func mustInstance(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, err := addrs.ParseAbsResourceInstanceStr(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestApplyReplacementWithIgnoreChanges: the new object of a replacement is
// planned from the configuration as written (ignore_changes is for updates),
// so the apply, which plans a create from the configuration, agrees with
// the saved plan.
func TestApplyReplacementWithIgnoreChanges(t *testing.T) {
	w := newWorld(t)
	w.run(`resource "test_thing" "a" {
  key         = "a"
  value       = "one"
  replace_key = "1"
  lifecycle { ignore_changes = [value] }
}`, planner.Options{})
	p := w.run(`resource "test_thing" "a" {
  key         = "a"
  value       = "two"
  replace_key = "2"
  lifecycle { ignore_changes = [value] }
}`, planner.Options{})
	if got := actions(p)["test_thing.a"]; got != "delete-then-create" {
		t.Fatalf("action = %s, want delete-then-create", got)
	}
	if got := w.live.Live(); len(got) != 1 || got[0].Value != "two" {
		t.Errorf("live objects = %+v, want one with value two", got)
	}
}

// TestApplyImpliedMoveKeepsObject: adding count to a resource keeps its
// object as [0] (no delete, no create), and removing count again keeps it
// as the no-key instance.
func TestApplyImpliedMoveKeepsObject(t *testing.T) {
	w := newWorld(t)
	w.run(`resource "test_thing" "a" { key = "a0" }`, planner.Options{})
	before := w.liveIDs()["a0"]

	p := w.run(`resource "test_thing" "a" {
  count = 2
  key   = "a${count.index}"
}`, planner.Options{})
	want := map[string]string{"test_thing.a[0]": "no-op", "test_thing.a[1]": "create"}
	if diff := cmp.Diff(want, actions(p)); diff != "" {
		t.Errorf("adding count (-want +got):\n%s", diff)
	}
	if got := w.liveIDs()["a0"]; got != before {
		t.Errorf("a0 is now %s, want the same object %s", got, before)
	}
	if w.state.Instance(mustInstance(t, "test_thing.a[0]")) == nil || w.state.Instance(mustInstance(t, "test_thing.a")) != nil {
		t.Errorf("state does not record the object as test_thing.a[0]")
	}
	if got := p.PrevRunState.Instance(mustInstance(t, "test_thing.a[0]")); got == nil {
		t.Errorf("the plan's previous-run state does not have the moved object")
	}

	p = w.run(`resource "test_thing" "a" { key = "a0" }`, planner.Options{})
	want = map[string]string{"test_thing.a": "no-op", "test_thing.a[1]": "delete"}
	if diff := cmp.Diff(want, actions(p)); diff != "" {
		t.Errorf("removing count (-want +got):\n%s", diff)
	}
	if got := w.liveIDs(); len(got) != 1 || got["a0"] != before {
		t.Errorf("live objects = %v, want only a0 = %s", got, before)
	}
}

// TestApplyRecordsUnchangedObjects: dependencies and create_before_destroy of
// an object with no change reach the state, and a later destroy is ordered
// by them.
func TestApplyRecordsUnchangedObjects(t *testing.T) {
	w := newWorld(t)
	w.run(`
resource "test_thing" "a" { key = "a" }
resource "test_thing" "b" { key = "b" }
`, planner.Options{})
	// b now depends on a, and a is create_before_destroy: neither changes.
	p := w.run(`
resource "test_thing" "a" {
  key = "a"
  lifecycle { create_before_destroy = true }
}
resource "test_thing" "b" {
  key        = "b"
  depends_on = [test_thing.a]
}
`, planner.Options{})
	if p.HasChanges() {
		t.Fatalf("plan has changes: %v", actions(p))
	}
	a := w.state.Object(addrs.ObjectAddr{Instance: mustInstance(t, "test_thing.a")})
	b := w.state.Object(addrs.ObjectAddr{Instance: mustInstance(t, "test_thing.b")})
	if !a.CreateBeforeDestroy {
		t.Errorf("test_thing.a: create_before_destroy not recorded")
	}
	if got := joinStrings(b.Dependencies); got != "test_thing.a" {
		t.Errorf("test_thing.b: dependencies = [%s], want [test_thing.a]", got)
	}

	// Both blocks removed: b (which depends on a) is deleted first.
	w.run(`resource "test_thing" "other" { key = "other" }`, planner.Options{})
	del := func(key string) providertest.Op {
		op, ok := w.live.Find(key, providertest.Delete)
		if !ok {
			t.Fatalf("%s was not deleted", key)
		}
		return op
	}
	if !providertest.Before(del("b"), del("a")) {
		t.Errorf("b must be deleted before a: %s", w.live.OrderString())
	}
}

// TestApplyDestroyOrderThroughDataSource: a resource that depends on another
// through a data source records that dependency, so a destroy deletes it
// first.
func TestApplyDestroyOrderThroughDataSource(t *testing.T) {
	w := newWorld(t)
	const src = `
resource "test_thing" "base" { key = "base" }
data "test_echo" "d" { input = test_thing.base.key }
resource "test_thing" "top" {
  key   = "top"
  value = data.test_echo.d.output
}
`
	// base first: a data source referring to a resource with a planned
	// change is read during apply (see data_sources_deferred.txtar).
	w.run(`resource "test_thing" "base" { key = "base" }`, planner.Options{})
	w.run(src, planner.Options{})
	top := w.state.Object(addrs.ObjectAddr{Instance: mustInstance(t, "test_thing.top")})
	if got := joinStrings(top.Dependencies); got != "data.test_echo.d, test_thing.base" {
		t.Errorf("test_thing.top: dependencies = [%s]", got)
	}
	w.run(src, planner.Options{Mode: plan.DestroyMode})
	topDel, _ := w.live.Find("top", providertest.Delete)
	baseDel, _ := w.live.Find("base", providertest.Delete)
	if !providertest.Before(topDel, baseDel) {
		t.Errorf("top must be deleted before base: %s", w.live.OrderString())
	}
	if len(w.live.Live()) != 0 {
		t.Errorf("after destroy: live %v", w.liveIDs())
	}
	for ra := range w.state.Resources {
		// OpenTofu also forgets data sources in a destroy (an apply matter,
		// not checked here).
		if ra.Resource.Mode == addrs.Managed {
			t.Errorf("after destroy: %s is still in state", ra)
		}
	}
}

// TestApplyRefreshRecreates: an object deleted outside rig is planned as a
// create and created again; the next plan has no changes. With
// -refresh=false the deletion goes unnoticed.
func TestApplyRefreshRecreates(t *testing.T) {
	w := newWorld(t)
	const src = `resource "test_thing" "a" { key = "a" }`
	w.run(src, planner.Options{})
	w.live.RemoveLive(w.liveIDs()["a"])

	if p := w.plan(src, planner.Options{SkipRefresh: true}); p.HasChanges() {
		t.Errorf("-refresh=false: plan has changes %v", actions(p))
	}
	p := w.run(src, planner.Options{})
	if got := actions(p)["test_thing.a"]; got != "create" {
		t.Errorf("action = %s, want create", got)
	}
	if p := w.plan(src, planner.Options{}); p.HasChanges() {
		t.Errorf("plan after re-creating has changes %v", actions(p))
	}
}

// TestApplyCreateBeforeDestroyReplacement: a create_before_destroy
// replacement creates the new object (and updates its dependent) before
// deleting the old one, with unique names held by both at once never
// clashing because the name changes too.
func TestApplyCreateBeforeDestroyReplacement(t *testing.T) {
	w := newWorld(t)
	cfg := func(rk string) string {
		return `
resource "test_thing" "a" {
  key         = "a"
  replace_key = "` + rk + `"
  lifecycle { create_before_destroy = true }
}
resource "test_thing" "b" {
  key   = "b"
  value = test_thing.a.id
}
`
	}
	w.run(cfg("1"), planner.Options{})
	oldA := w.liveIDs()["a"]
	p := w.run(cfg("2"), planner.Options{})
	want := map[string]string{"test_thing.a": "create-then-delete", "test_thing.b": "update"}
	if diff := cmp.Diff(want, actions(p)); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
	var createA, deleteA, updateB providertest.Op
	for _, op := range w.live.Ops() {
		switch {
		case op.Key == "a" && op.Action == providertest.Create && op.ID != oldA:
			createA = op
		case op.Key == "a" && op.Action == providertest.Delete:
			deleteA = op
		case op.Key == "b" && op.Action == providertest.Update:
			updateB = op
		}
	}
	if !providertest.Before(createA, updateB) || !providertest.Before(updateB, deleteA) {
		t.Errorf("want create a, update b, delete a; got %s", w.live.OrderString())
	}
	if len(w.state.Instance(mustInstance(t, "test_thing.a")).Deposed) != 0 {
		t.Errorf("a deposed object is left in state")
	}
}

// TestPlanDoesNotModifyInputState: Make leaves the caller's state alone,
// implied moves and refresh included.
func TestPlanDoesNotModifyInputState(t *testing.T) {
	ar := txtar.Parse([]byte(`
-- main.tf --
resource "test_thing" "a" {
  count = 1
  key   = "a"
  value = "new"
}
-- state.json --
{
  "version": 4, "terraform_version": "1.10.0", "serial": 3, "lineage": "0c1b7d0e-1111-4222-8333-444455556666",
  "outputs": {},
  "resources": [
    {"mode": "managed", "type": "test_thing", "name": "a", "provider": "provider[\"registry.terraform.io/hashicorp/test\"]",
     "instances": [{"schema_version": 0, "attributes": {"id": "id-1", "key": "a", "value": "old", "output": "old"}}]}
  ]
}
`))
	fx := loadFixture(t, ar)
	before := renderState(fx.state)
	drift(t, fx.live, "id-1", "value", cty.StringVal("drifted"))
	p, ds := makePlan(t, fx)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if got := renderState(fx.state); got != before {
		t.Errorf("input state changed:\n%s\nwant:\n%s", got, before)
	}
	if p.PrevRunState == fx.state || p.PriorState == fx.state || p.PriorState == p.PrevRunState {
		t.Errorf("the plan shares state values with its input or between its states")
	}
	prior, err := p.PriorState.Object(addrs.ObjectAddr{Instance: mustInstance(t, "test_thing.a[0]")}).Decode(thingType)
	if err != nil || prior.GetAttr("value").AsString() != "drifted" {
		t.Errorf("prior state does not have the refreshed object: %v %v", prior, err)
	}
}
