package providertest

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

func TestRecordsCreateUpdateDelete(t *testing.T) {
	p := New()
	a := create(t, p, cfg{key: "a", value: "1"})
	b := create(t, p, cfg{key: "b", name: "bee"})
	a2, ds := change(t, p, ThingType, a, cfg{key: "a", value: "2"}.val())
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if _, ds := change(t, p, ThingType, b, nullObj); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	noKey := create(t, p, cfg{value: "anon"})

	want := []Op{
		{Start: 1, End: 2, Type: ThingType, Key: "a", Action: Create, ID: "id-1", Value: "1"},
		{Start: 3, End: 4, Type: ThingType, Key: "b", Action: Create, ID: "id-2", Name: "bee"},
		{Start: 5, End: 6, Type: ThingType, Key: "a", Action: Update, ID: "id-1", Value: "2"},
		{Start: 7, End: 8, Type: ThingType, Key: "b", Action: Delete, ID: "id-2", Name: "bee"},
		{Start: 9, End: 10, Type: ThingType, Key: "id-3", Action: Create, ID: "id-3", Value: "anon"},
	}
	if diff := cmp.Diff(want, p.Ops()); diff != "" {
		t.Errorf("Ops (-want +got):\n%s", diff)
	}
	if got, want := p.OrderString(), "create a; create b; update a; delete b; create id-3"; got != want {
		t.Errorf("OrderString = %q, want %q", got, want)
	}
	if got := a2.GetAttr("output"); !got.RawEquals(cty.StringVal("2")) {
		t.Errorf("output after update = %#v, want \"2\"", got)
	}
	wantLive := []Object{
		{Type: ThingType, ID: "id-1", Key: "a", Value: "2", State: a2},
		{Type: ThingType, ID: "id-3", Key: "id-3", Value: "anon", State: noKey},
	}
	if diff := cmp.Diff(wantLive, p.Live(), cmpopts.IgnoreFields(Object{}, "State")); diff != "" {
		t.Errorf("Live (-want +got):\n%s", diff)
	}
	for i, o := range p.Live() {
		if !o.State.RawEquals(wantLive[i].State) {
			t.Errorf("Live[%d].State = %#v, want %#v", i, o.State, wantLive[i].State)
		}
	}
}

func TestPlan(t *testing.T) {
	prior := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("id-1"), "key": cty.StringVal("a"), "name": cty.NullVal(cty.String),
		"value": cty.StringVal("x"), "replace_key": cty.StringVal("r1"), "output": cty.StringVal("x"),
		"ref": cty.NullVal(cty.List(cty.String)),
	})
	tests := []struct {
		name         string
		prior        cty.Value
		config       cty.Value
		wantNull     bool
		wantReplace  bool
		wantIDKnown  bool
		wantOutKnown bool
	}{
		{name: "create", prior: nullObj, config: cfg{key: "a", value: "x"}.val()},
		{name: "no change", prior: prior, config: cfg{key: "a", value: "x", replaceKey: "r1"}.val(), wantIDKnown: true, wantOutKnown: true},
		{name: "value changes: update, output unknown", prior: prior, config: cfg{key: "a", value: "y", replaceKey: "r1"}.val(), wantIDKnown: true},
		{name: "name changes only: output kept", prior: prior, config: cfg{key: "a", name: "n", value: "x", replaceKey: "r1"}.val(), wantIDKnown: true, wantOutKnown: true},
		{name: "replace_key changes: replace", prior: prior, config: cfg{key: "a", value: "x", replaceKey: "r2"}.val(), wantReplace: true},
		{name: "delete", prior: prior, config: nullObj, wantNull: true},
	}
	p := New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proposed := provider.ProposedNew(ThingSchema().Block, tt.prior, tt.config)
			resp := p.PlanResourceChange(context.Background(), provider.PlanRequest{TypeName: ThingType, PriorState: tt.prior, ProposedNewState: proposed, Config: tt.config})
			if resp.Diagnostics.HasErrors() {
				t.Fatal(resp.Diagnostics.Err())
			}
			if got := resp.PlannedState.IsNull(); got != tt.wantNull {
				t.Fatalf("planned null = %v, want %v", got, tt.wantNull)
			}
			if tt.wantNull {
				return
			}
			wantPaths := []cty.Path(nil)
			if tt.wantReplace {
				wantPaths = []cty.Path{cty.GetAttrPath("replace_key")}
			}
			if diff := cmp.Diff(wantPaths, resp.RequiresReplace, cmp.Comparer(func(x, y cty.Path) bool { return x.Equals(y) })); diff != "" {
				t.Errorf("RequiresReplace (-want +got):\n%s", diff)
			}
			if got := resp.PlannedState.GetAttr("id").IsKnown(); got != tt.wantIDKnown {
				t.Errorf("id known = %v, want %v", got, tt.wantIDKnown)
			}
			if got := resp.PlannedState.GetAttr("output").IsKnown(); got != tt.wantOutKnown {
				t.Errorf("output known = %v, want %v", got, tt.wantOutKnown)
			}
		})
	}
}

func TestNamesAreUniqueAmongLiveObjects(t *testing.T) {
	p := New()
	a := create(t, p, cfg{key: "a", name: "n"})

	got, ds := change(t, p, ThingType, nullObj, cfg{key: "b", name: "n"}.val())
	wantErr(t, ds, `name "n" is already taken by id-1`)
	if !got.IsNull() {
		t.Errorf("failed create returned %#v, want null", got)
	}
	_, ds = change(t, p, OtherType, nullObj, cfg{key: "c", name: "n"}.val())
	wantErr(t, ds, `name "n" is already taken by id-1`)

	b := create(t, p, cfg{key: "b", name: "m"})
	got, ds = change(t, p, ThingType, b, cfg{key: "b", name: "n"}.val())
	wantErr(t, ds, `name "n" is already taken by id-1`)
	if !got.RawEquals(b) {
		t.Errorf("failed update returned %#v, want the prior object", got)
	}

	if _, ds := change(t, p, ThingType, a, nullObj); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if _, ds := change(t, p, ThingType, b, cfg{key: "b", name: "n"}.val()); ds.HasErrors() {
		t.Fatalf("update to a freed name: %v", ds.Err())
	}
	create(t, p, cfg{key: "d", name: "m"}) // b's old name is free again
	if got, want := p.OrderString(), "create a; create b (failed); create c (failed); create b; update b (failed); delete a; update b; create d"; got != want {
		t.Errorf("OrderString = %q, want %q", got, want)
	}
}

func TestMissingObjects(t *testing.T) {
	p := New()
	ctx := context.Background()
	a := create(t, p, cfg{key: "a"})

	read := p.ReadResource(ctx, provider.ReadRequest{TypeName: ThingType, PriorState: a})
	if read.Diagnostics.HasErrors() || !read.NewState.RawEquals(a) {
		t.Fatalf("read live object = %#v, %v; want it unchanged", read.NewState, read.Diagnostics.Err())
	}
	if _, ds := change(t, p, ThingType, a, nullObj); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	got, ds := change(t, p, ThingType, a, nullObj)
	wantErr(t, ds, "object id-1 does not exist")
	if !got.RawEquals(a) {
		t.Errorf("failed delete returned %#v, want the prior object", got)
	}
	_, ds = change(t, p, ThingType, a, cfg{key: "a", value: "v"}.val())
	wantErr(t, ds, "object id-1 does not exist")

	b := create(t, p, cfg{key: "b"})
	if !p.RemoveLive("id-2") {
		t.Fatal("RemoveLive(id-2) = false")
	}
	if read := p.ReadResource(ctx, provider.ReadRequest{TypeName: ThingType, PriorState: b}); !read.NewState.IsNull() {
		t.Errorf("read of object deleted outside rig = %#v, want null", read.NewState)
	}
}

func TestAddLive(t *testing.T) {
	p := New()
	obj := cfg{key: "seeded", name: "n", value: "v"}.val().AsValueMap()
	obj["id"], obj["output"] = cty.StringVal("id-7"), cty.StringVal("v")
	if err := p.AddLive(ThingType, cty.ObjectVal(obj)); err != nil {
		t.Fatal(err)
	}
	if err := p.AddLive(ThingType, cty.ObjectVal(obj)); err == nil {
		t.Error("adding id-7 twice succeeded")
	}
	if err := p.AddLive("test_nope", cty.ObjectVal(obj)); err == nil {
		t.Error("adding an object of an unknown type succeeded")
	}
	got := create(t, p, cfg{key: "next"})
	if id := got.GetAttr("id").AsString(); id != "id-8" {
		t.Errorf("id after AddLive(id-7) = %s, want id-8", id)
	}
	imp := p.ImportResourceState(context.Background(), provider.ImportRequest{TypeName: ThingType, ID: "id-7"})
	if imp.Diagnostics.HasErrors() || len(imp.Imported) != 1 || !imp.Imported[0].State.RawEquals(cty.ObjectVal(obj)) {
		t.Errorf("import id-7 = %#v, %v", imp.Imported, imp.Diagnostics.Err())
	}
	if imp := p.ImportResourceState(context.Background(), provider.ImportRequest{TypeName: ThingType, ID: "id-99"}); !imp.Diagnostics.HasErrors() {
		t.Error("import of a missing object succeeded")
	}
}

func TestUpgradeResourceState(t *testing.T) {
	p := New()
	raw := []byte(`{"id":"id-1","key":"a","name":null,"value":"v","replace_key":null,"output":"v","ref":["x"]}`)
	resp := p.UpgradeResourceState(context.Background(), provider.UpgradeRequest{TypeName: ThingType, RawStateJSON: raw})
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Err())
	}
	if got := resp.UpgradedState.GetAttr("ref"); !got.RawEquals(cty.ListVal([]cty.Value{cty.StringVal("x")})) {
		t.Errorf("ref = %#v", got)
	}
	if resp := p.UpgradeResourceState(context.Background(), provider.UpgradeRequest{TypeName: ThingType, Version: 1, RawStateJSON: raw}); !resp.Diagnostics.HasErrors() {
		t.Error("version 1 accepted")
	}
}

func TestValidateAndFactory(t *testing.T) {
	p := New()
	ctx := context.Background()
	bad := cfg{key: "a"}.val().AsValueMap()
	bad["output"] = cty.StringVal("set")
	if ds := p.ValidateResourceConfig(ctx, ThingType, cty.ObjectVal(bad)); !ds.HasErrors() {
		t.Error("setting output accepted")
	}
	if ds := p.ValidateResourceConfig(ctx, "test_nope", cfg{}.val()); !ds.HasErrors() {
		t.Error("unknown type accepted")
	}
	if ds := p.ValidateResourceConfig(ctx, OtherType, cfg{key: "a"}.val()); ds.HasErrors() {
		t.Error(ds.Err())
	}
	f, ok := p.Factories()[Address()]
	if !ok {
		t.Fatalf("Factories has no entry for %s", Address())
	}
	inst, err := f()
	if err != nil || inst != provider.Interface(p) {
		t.Errorf("factory returned %v, %v; want the provider itself", inst, err)
	}
	s, _ := p.GetProviderSchema(ctx)
	if diff := cmp.Diff([]string{OtherType, SecretType, ThingType}, slices.Sorted(maps.Keys(s.ResourceTypes))); diff != "" {
		t.Errorf("resource types (-want +got):\n%s", diff)
	}
}

func TestWorksThroughProviderSet(t *testing.T) {
	p := New()
	ctx := context.Background()
	set := provider.NewSet(p.Factories())
	pc := addrs.AbsProviderConfig{Provider: Address()}
	inst, ds := set.Configured(ctx, pc, func(*provider.Schemas) (cty.Value, diag.Diagnostics) { return cty.EmptyObjectVal, nil })
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if inst != provider.Interface(p) {
		t.Fatalf("Set returned %v, want the provider itself", inst)
	}
	if _, ds := set.ResourceTypeSchema(ctx, Address(), OtherType); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	set.Stop(ctx)
	if err := set.Close(); err != nil {
		t.Fatal(err)
	}
	// The Set started the provider once: the instance it fetched the
	// schemas from is the one it configured.
	if got := len(p.Stops()); got != 1 {
		t.Errorf("%d Stop calls, want 1", got)
	}
	if got := len(p.Closes()); got != 1 {
		t.Errorf("%d Close calls, want 1", got)
	}
}
