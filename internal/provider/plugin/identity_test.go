package plugin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

func fileObj(id, content string) cty.Value {
	idv := cty.UnknownVal(cty.String)
	if id != "" {
		idv = cty.StringVal(id)
	}
	return cty.ObjectVal(map[string]cty.Value{"id": idv, "key": cty.NullVal(cty.String), "content": cty.StringVal(content)})
}

func idOf(id string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id)})
}

// Resource identities travel over both protocols: the schema, the
// identity of every read, plan, apply and import, and the upgrade of a
// stored identity.
func TestResourceIdentity(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		ctx := context.Background()
		s, ds := p.GetProviderSchema(ctx)
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		fs := s.ResourceTypes["test_file"]
		if fs.Identity == nil || fs.IdentityVersion != 1 || !fs.Identity.Attributes["id"].Required {
			t.Fatalf("test_file identity schema = %#v version %d", fs.Identity, fs.IdentityVersion)
		}
		if s.ResourceTypes["test_thing"].Identity != nil {
			t.Errorf("test_thing has an identity schema")
		}
		if _, ok := s.ListResources["test_file"]; !ok {
			t.Errorf("no test_file list resource schema: %v", s.ListResources)
		}
	})
}

func TestIdentityLifecycle(t *testing.T) {
	for _, v := range []string{"5", "6"} {
		t.Run("protocol"+v, func(t *testing.T) { identityLifecycle(t, v) })
	}
}

func identityLifecycle(t *testing.T, version string) {
	ctx := context.Background()
	t.Setenv("RIG_TESTPROVIDER_WORLD", t.TempDir())
	p := startTest(t, version)
	null := cty.NullVal(fileObj("x", "").Type())
	cfg := cty.ObjectVal(map[string]cty.Value{"id": cty.NullVal(cty.String), "key": cty.NullVal(cty.String), "content": cty.StringVal("hello")})
	plan := p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: "test_file", PriorState: null, ProposedNewState: cfg, Config: cfg})
	if plan.Diagnostics.HasErrors() {
		t.Fatal(plan.Diagnostics.Err())
	}
	if plan.PlannedIdentity != cty.NilVal {
		t.Errorf("planned identity of a create = %#v, want none", plan.PlannedIdentity)
	}
	app := p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: "test_file", PriorState: null, PlannedState: plan.PlannedState, Config: cfg, PlannedIdentity: plan.PlannedIdentity})
	if app.Diagnostics.HasErrors() {
		t.Fatal(app.Diagnostics.Err())
	}
	id := app.NewState.GetAttr("id").AsString()
	if !app.NewIdentity.RawEquals(idOf(id)) {
		t.Errorf("identity after create = %#v, want id %s", app.NewIdentity, id)
	}
	read := p.ReadResource(ctx, provider.ReadRequest{TypeName: "test_file", PriorState: app.NewState, CurrentIdentity: app.NewIdentity})
	if read.Diagnostics.HasErrors() || !read.NewIdentity.RawEquals(idOf(id)) {
		t.Errorf("identity after read = %#v (%v)", read.NewIdentity, read.Diagnostics.Err())
	}
	upd := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "key": cty.NullVal(cty.String), "content": cty.StringVal("bye")})
	plan = p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: "test_file", PriorState: app.NewState, ProposedNewState: upd, Config: cfg, PriorIdentity: app.NewIdentity})
	if !plan.PlannedIdentity.RawEquals(idOf(id)) {
		t.Errorf("planned identity of an update = %#v", plan.PlannedIdentity)
	}
	imp := p.ImportResourceState(ctx, provider.ImportRequest{TypeName: "test_file", Identity: idOf(id)})
	if imp.Diagnostics.HasErrors() || len(imp.Imported) != 1 {
		t.Fatalf("import by identity: %v %d", imp.Diagnostics.Err(), len(imp.Imported))
	}
	if got := imp.Imported[0]; !got.Identity.RawEquals(idOf(id)) || got.State.GetAttr("content").AsString() != "hello" {
		t.Errorf("imported %#v identity %#v", got.State, got.Identity)
	}
	imp = p.ImportResourceState(ctx, provider.ImportRequest{TypeName: "test_file", ID: id})
	if imp.Diagnostics.HasErrors() || !imp.Imported[0].Identity.RawEquals(idOf(id)) {
		t.Errorf("import by ID: %v", imp.Diagnostics.Err())
	}
	imp = p.ImportResourceState(ctx, provider.ImportRequest{TypeName: "test_thing", Identity: idOf(id)})
	if !imp.Diagnostics.HasErrors() || imp.Diagnostics[0].Summary != "Resource type does not support import by identity" {
		t.Errorf("import of a type without identity by identity: %v", imp.Diagnostics)
	}

	up := p.UpgradeResourceState(ctx, provider.UpgradeRequest{TypeName: "test_file", RawStateJSON: []byte(`{"id":"a","content":"c"}`), IdentityVersion: 0, RawIdentityJSON: []byte(`{"file_id":"a"}`)})
	if up.Diagnostics.HasErrors() || !up.UpgradedIdentity.RawEquals(idOf("a")) {
		t.Errorf("upgraded identity %#v (%v)", up.UpgradedIdentity, up.Diagnostics.Err())
	}
	up = p.UpgradeResourceState(ctx, provider.UpgradeRequest{TypeName: "test_file", RawStateJSON: []byte(`{"id":"a","content":"c"}`), IdentityVersion: 2, RawIdentityJSON: []byte(`{"id":"a"}`)})
	if !up.Diagnostics.HasErrors() || up.Diagnostics[0].Summary != "Resource instance managed by newer provider version" {
		t.Errorf("identity from a newer version: %v", up.Diagnostics)
	}
}

// ListResource streams what exists, filtered by identity or attributes,
// up to the limit.
func TestListResource(t *testing.T) {
	for _, v := range []string{"5", "6"} {
		t.Run("protocol"+v, func(t *testing.T) {
			world := t.TempDir()
			for name, content := range map[string]string{"a1": "alpha", "b2": "beta", "c3": "alpha-2", ".hidden": "x"} {
				if err := os.WriteFile(filepath.Join(world, name), []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("RIG_TESTPROVIDER_WORLD", world)
			p := startTest(t, v)
			cfg := func(id, content, prefix string) cty.Value {
				str := func(s string) cty.Value {
					if s == "" {
						return cty.NullVal(cty.String)
					}
					return cty.StringVal(s)
				}
				return cty.ObjectVal(map[string]cty.Value{"id": str(id), "content": str(content), "content_prefix": str(prefix)})
			}
			for _, tc := range []struct {
				name    string
				config  cty.Value
				limit   int64
				include bool
				want    []string
			}{
				{"all", cfg("", "", ""), 100, false, []string{"a1", "b2", "c3"}},
				{"limit", cfg("", "", ""), 2, false, []string{"a1", "b2"}},
				{"by identity", cfg("b2", "", ""), 100, true, []string{"b2"}},
				{"by attribute", cfg("", "alpha", ""), 100, true, []string{"a1"}},
				{"by prefix", cfg("", "", "alpha"), 100, false, []string{"a1", "c3"}},
			} {
				var got []string
				ds := p.ListResource(context.Background(), provider.ListRequest{TypeName: "test_file", Config: tc.config, Limit: tc.limit, IncludeResource: tc.include}, func(o provider.ListedObject) {
					got = append(got, o.Identity.GetAttr("id").AsString())
					if tc.include != (o.Resource != cty.NilVal) {
						t.Errorf("%s: resource object %#v with include %v", tc.name, o.Resource, tc.include)
					}
					if o.DisplayName == "" {
						t.Errorf("%s: no display name", tc.name)
					}
				})
				if ds.HasErrors() {
					t.Fatalf("%s: %v", tc.name, ds.Err())
				}
				if len(got) != len(tc.want) || (len(got) > 0 && got[len(got)-1] != tc.want[len(tc.want)-1]) || got[0] != tc.want[0] {
					t.Errorf("%s: listed %v, want %v", tc.name, got, tc.want)
				}
			}
			ds := p.ListResource(context.Background(), provider.ListRequest{TypeName: "test_nope", Config: cfg("", "", "")}, func(provider.ListedObject) {})
			if !ds.HasErrors() || ds[0].Summary != "Invalid list resource type" {
				t.Errorf("unknown list type: %v", ds)
			}

			// ValidateListResourceConfig: the provider's own rules, with
			// the attribute path of what it refuses; unknowns allowed.
			if ds := p.ValidateListResourceConfig(context.Background(), "test_file", cfg("a1", "", "")); ds.HasErrors() {
				t.Errorf("valid list config refused: %v", ds.Err())
			}
			unknownID := cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "content": cty.NullVal(cty.String), "content_prefix": cty.StringVal("x")})
			for _, c := range []cty.Value{cfg("a1", "", "x"), unknownID} {
				ds := p.ValidateListResourceConfig(context.Background(), "test_file", c)
				if !ds.HasErrors() || ds[0].Summary != "Conflicting filters" || len(ds[0].AttributePath) != 1 {
					t.Errorf("conflicting list config %#v: %v", c, ds)
				}
			}
		})
	}
}
