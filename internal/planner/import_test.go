package planner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// legacyImporter returns, for one import, the objects a legacy provider
// may return: of several types, several of one type. Reading any of them
// back returns it unchanged.
type legacyImporter struct {
	*providertest.Provider
	types []string
}

func (p legacyImporter) ImportResourceState(_ context.Context, req provider.ImportRequest) provider.ImportResponse {
	var resp provider.ImportResponse
	for i, typ := range p.types {
		obj := cty.ObjectVal(map[string]cty.Value{
			"id": cty.StringVal(fmt.Sprintf("%s-%d", req.ID, i)), "key": cty.NullVal(cty.String), "name": cty.NullVal(cty.String),
			"value": cty.NullVal(cty.String), "replace_key": cty.NullVal(cty.String), "output": cty.NullVal(cty.String), "ref": cty.NullVal(cty.List(cty.String)),
		})
		resp.Imported = append(resp.Imported, provider.ImportedObject{TypeName: typ, State: obj})
	}
	return resp
}

func (p legacyImporter) ReadResource(_ context.Context, req provider.ReadRequest) provider.ReadResponse {
	return provider.ReadResponse{NewState: req.PriorState, Private: req.Private}
}

// importLog records the import hooks' calls.
type importLog []string

func (l *importLog) PreImport(addr addrs.AbsResourceInstance, id string) {
	*l = append(*l, fmt.Sprintf("import %s %s", addr, id))
}
func (l *importLog) PostImport(addr addrs.AbsResourceInstance, imported []provider.ImportedObject) {
	*l = append(*l, fmt.Sprintf("prepared %s: %d", addr, len(imported)))
}
func (l *importLog) PreRefresh(addr addrs.AbsResourceInstance, prior cty.Value) {
	*l = append(*l, fmt.Sprintf("refresh %s %s", addr, prior.GetAttr("id").AsString()))
}

// TestImportObjects checks where the objects of one import go: each to
// the target's name in its own type, the same address again suffixed -1,
// -2; dependencies come from the target resource's configuration.
func TestImportObjects(t *testing.T) {
	const src = `
resource "test_thing" "base" {}

resource "test_thing" "x" {
  ref = [test_thing.base.id]
}
`
	tests := []struct {
		name      string
		types     []string
		wantAddrs []string
		wantErr   string
	}{
		{"one object", []string{"test_thing"}, []string{"test_thing.x"}, ""},
		{"objects of another type", []string{"test_thing", "test_other"}, []string{"test_other.x", "test_thing.x"}, ""},
		{"several of one type", []string{"test_thing", "test_thing", "test_thing"}, []string{"test_thing.x", "test_thing.x-1", "test_thing.x-2"}, ""},
		{"nothing", nil, nil, "Import returned no resources"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := provider.NewSet(provider.Factories{providertest.Address(): func() (provider.Interface, error) {
				return legacyImporter{providertest.New(), tt.types}, nil
			}})
			defer set.Close()
			prior := state.New()
			var log importLog
			target := planner.ImportTarget{Addr: mustInstance(t, "test_thing.x"), ID: "r"}
			got, ds := planner.Import(context.Background(), loadConfig(t, src), prior, set, []planner.ImportTarget{target}, planner.ImportOptions{Hooks: &log})
			if tt.wantErr != "" {
				if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tt.wantErr) || got != nil {
					t.Fatalf("diagnostics %v, want %q and no state", ds, tt.wantErr)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			var addrsGot []string
			for _, oa := range got.Objects() {
				addrsGot = append(addrsGot, oa.String())
			}
			base := mustInstance(t, "test_thing.base").ContainingResource()
			if obj := got.Object(addrs.ObjectAddr{Instance: target.Addr}); !cmp.Equal(obj.Dependencies, []addrs.AbsResource{base}) {
				t.Errorf("test_thing.x dependencies = %v, want [%s]", obj.Dependencies, base)
			}
			if diff := cmp.Diff(tt.wantAddrs, addrsGot); diff != "" {
				t.Errorf("imported addresses (-want +got):\n%s", diff)
			}
			if len(prior.Resources) != 0 {
				t.Error("Import changed the prior state")
			}
			if log[0] != "import test_thing.x r" || log[1] != fmt.Sprintf("prepared test_thing.x: %d", len(tt.types)) || len(log) != 2+len(tt.types) {
				t.Errorf("hooks: %q", log)
			}
		})
	}
}

// TestImportThroughProviderInstance imports into an instance of a resource
// whose provider is chosen per instance: the object is read through, and
// recorded under, that provider instance.
func TestImportThroughProviderInstance(t *testing.T) {
	const src = `
provider "test" {
  alias    = "r"
  for_each = toset(["eu", "us"])
  region   = each.key
}
resource "test_thing" "x" {
  for_each = { a = "eu", b = "us" }
  provider = test.r[each.value]
}
`
	live := providertest.New()
	obj := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("x1"), "key": cty.NullVal(cty.String), "name": cty.NullVal(cty.String),
		"value": cty.NullVal(cty.String), "replace_key": cty.NullVal(cty.String), "output": cty.NullVal(cty.String), "ref": cty.NullVal(cty.List(cty.String)),
	})
	if err := live.AddLive(providertest.ThingType, obj); err != nil {
		t.Fatal(err)
	}
	set := provider.NewSet(live.InstanceFactories())
	defer set.Close()
	target := planner.ImportTarget{Addr: mustInstance(t, `test_thing.x["b"]`), ID: "x1"}
	got, ds := planner.Import(context.Background(), loadConfig(t, src), state.New(), set, []planner.ImportTarget{target}, planner.ImportOptions{Hooks: &importLog{}})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if pc := got.ObjectProvider(target.Addr).String(); pc != `provider["registry.terraform.io/hashicorp/test"].r["us"]` {
		t.Errorf("imported object recorded with provider %s", pc)
	}
	if c := live.Configured(); len(c) != 1 || c[0] != "us" {
		t.Errorf("configured provider instances %v, want [us]", c)
	}
}

// TestImportBesideDeposed: where the state records only a deposed object
// (a create_before_destroy replacement cut off after deposing), an import
// is refused as OpenTofu refuses it, unless the target asks to go beside
// the deposed object (rig recover), which then stays recorded.
func TestImportBesideDeposed(t *testing.T) {
	const src = `resource "test_thing" "x" {}`
	for _, beside := range []bool{false, true} {
		t.Run(fmt.Sprintf("BesideDeposed=%v", beside), func(t *testing.T) {
			live := providertest.New()
			obj := cty.ObjectVal(map[string]cty.Value{
				"id": cty.StringVal("new"), "key": cty.NullVal(cty.String), "name": cty.NullVal(cty.String),
				"value": cty.NullVal(cty.String), "replace_key": cty.NullVal(cty.String), "output": cty.NullVal(cty.String), "ref": cty.NullVal(cty.List(cty.String)),
			})
			if err := live.AddLive(providertest.ThingType, obj); err != nil {
				t.Fatal(err)
			}
			set := provider.NewSet(live.InstanceFactories())
			defer set.Close()
			addr := mustInstance(t, "test_thing.x")
			old := addrs.ObjectAddr{Instance: addr, Deposed: "00000001"}
			prior := state.New()
			prior.SetObject(old, &state.Object{AttrsJSON: []byte(`{"id":"old"}`)}, addrs.AbsProviderConfig{Provider: providertest.Address()})
			target := planner.ImportTarget{Addr: addr, ID: "new", BesideDeposed: beside}
			got, ds := planner.Import(context.Background(), loadConfig(t, src), prior, set, []planner.ImportTarget{target}, planner.ImportOptions{Hooks: &importLog{}})
			if !beside {
				if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "Resource already managed by rig") {
					t.Fatalf("diagnostics %v, want Resource already managed by rig", ds)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if cur := got.Object(addrs.ObjectAddr{Instance: addr}); cur == nil || !strings.Contains(string(cur.AttrsJSON), `"new"`) {
				t.Errorf("current object %v, want the imported one", cur)
			}
			if got.Object(old) == nil {
				t.Error("the deposed object is no longer recorded")
			}
		})
	}
}
