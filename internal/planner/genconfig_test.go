package planner_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// countingImporter counts the provider's ImportResourceState calls.
type countingImporter struct {
	*providertest.Provider
	imports *atomic.Int32
}

func (p countingImporter) ImportResourceState(ctx context.Context, req provider.ImportRequest) provider.ImportResponse {
	p.imports.Add(1)
	return p.Provider.ImportResourceState(ctx, req)
}

// TestGeneratedImportImportsOnce checks that plan -generate-config-out
// imports its target once: the plan after generation takes the object
// GenerateConfig imported instead of asking the provider again, and
// still plans it as an import with no other change.
func TestGeneratedImportImportsOnce(t *testing.T) {
	live := providertest.New()
	obj := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("x1"), "key": cty.NullVal(cty.String), "name": cty.StringVal("web"),
		"value": cty.NullVal(cty.String), "replace_key": cty.NullVal(cty.String), "output": cty.NullVal(cty.String), "ref": cty.NullVal(cty.List(cty.String)),
	})
	if err := live.AddLive(providertest.ThingType, obj); err != nil {
		t.Fatal(err)
	}
	var imports atomic.Int32
	set := provider.NewSet(provider.Factories{providertest.Address(): func() (provider.Interface, error) {
		return countingImporter{live, &imports}, nil
	}})
	defer set.Close()

	const src = `
import {
  to = test_thing.web
  id = "x1"
}
`
	gen, ds := planner.GenerateConfig(context.Background(), loadConfig(t, src), state.New(), set, planner.Options{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if len(gen) != 1 || !strings.Contains(string(gen[0].Config), `"web"`) {
		t.Fatalf("generated %+v, want one block with name \"web\"", gen)
	}
	cfg := loadConfig(t, src+string(gen[0].Config))
	p, ds := planner.Make(context.Background(), cfg, state.New(), set, planner.Options{Generated: gen})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if n := imports.Load(); n != 1 {
		t.Errorf("the provider imported the object %d times, want once", n)
	}
	if len(p.Changes) != 1 || p.Changes[0].Importing == nil || p.Changes[0].Importing.ID != "x1" || p.Changes[0].Action != plan.NoOp {
		t.Fatalf("changes %+v, want one no-op import of x1", p.Changes)
	}

	// Without the generated objects the plan imports again.
	if _, ds := planner.Make(context.Background(), cfg, state.New(), set, planner.Options{}); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if n := imports.Load(); n != 2 {
		t.Errorf("after a plan without Generated the provider imported %d times, want 2", n)
	}
}

// TestGeneratedImportProviderInstance generates the configuration of
// import blocks that name an instance of a provider configuration with
// for_each: each object is imported through its instance and its block
// names that instance with a literal key.
func TestGeneratedImportProviderInstance(t *testing.T) {
	live := providertest.New()
	for _, id := range []string{"x1", "x2"} {
		obj := cty.ObjectVal(map[string]cty.Value{
			"id": cty.StringVal(id), "key": cty.NullVal(cty.String), "name": cty.StringVal("n-" + id),
			"value": cty.NullVal(cty.String), "replace_key": cty.NullVal(cty.String), "output": cty.NullVal(cty.String), "ref": cty.NullVal(cty.List(cty.String)),
		})
		if err := live.AddLive(providertest.ThingType, obj); err != nil {
			t.Fatal(err)
		}
	}
	set := provider.NewSet(live.InstanceFactories())
	defer set.Close()
	const src = `
provider "test" {
  alias    = "r"
  for_each = { eu = "eu-west-1", us = "us-east-1" }
  region   = each.value
}
variable "second" {
  default = "us"
}
import {
  to       = test_thing.one
  id       = "x1"
  provider = test.r["eu"]
}
import {
  to       = test_thing.two
  id       = "x2"
  provider = test.r[var.second]
}
`
	gen, ds := planner.GenerateConfig(context.Background(), loadConfig(t, src), state.New(), set, planner.Options{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	want := map[string]string{`test_thing.one`: `provider    = test.r["eu"]`, `test_thing.two`: `provider    = test.r["us"]`}
	if len(gen) != len(want) {
		t.Fatalf("generated %d blocks, want %d", len(gen), len(want))
	}
	for _, g := range gen {
		if w := want[g.Addr.String()]; w == "" || !strings.Contains(string(g.Config), w) {
			t.Errorf("%s generated as\n%s\nwant a line %q", g.Addr, g.Config, w)
		}
	}
	if got := live.Configured(); len(got) != 2 {
		t.Errorf("configured provider instances %v, want eu-west-1 and us-east-1", got)
	}
}

// TestResourceConfigForms checks the block -generate-config-out writes
// for an object of a schema with every kind of argument, as OpenTofu
// writes it: required and optional attributes in name order, computed-only
// ones left out, a sensitive one as `null # sensitive`, a JSON string as
// jsonencode, an empty optional string as null, nested attributes without
// their computed parts, and nested blocks (single, list, map) one per
// element.
func TestResourceConfigForms(t *testing.T) {
	schema := &provider.Block{
		Attributes: map[string]*provider.Attribute{
			"name":     {Type: cty.String, Required: true},
			"comment":  {Type: cty.String, Optional: true},
			"policy":   {Type: cty.String, Optional: true},
			"password": {Type: cty.String, Optional: true, Sensitive: true},
			"size":     {Type: cty.Number, Optional: true, Computed: true},
			"id":       {Type: cty.String, Computed: true},
			"tags":     {Type: cty.Map(cty.String), Optional: true},
			"endpoint": {NestedType: &provider.NestedObject{Nesting: provider.NestingSingle, Attributes: map[string]*provider.Attribute{
				"host": {Type: cty.String, Required: true},
				"ip":   {Type: cty.String, Computed: true},
			}}, Optional: true},
		},
		BlockTypes: map[string]*provider.NestedBlock{
			"network": {Nesting: provider.NestingSingle, Block: provider.Block{Attributes: map[string]*provider.Attribute{
				"subnet": {Type: cty.String, Required: true},
			}}},
			"rule": {Nesting: provider.NestingList, Block: provider.Block{Attributes: map[string]*provider.Attribute{
				"port": {Type: cty.Number, Required: true},
				"hits": {Type: cty.Number, Computed: true},
			}}},
			"setting": {Nesting: provider.NestingMap, Block: provider.Block{Attributes: map[string]*provider.Attribute{
				"value": {Type: cty.String, Optional: true},
			}}},
		},
	}
	v := cty.ObjectVal(map[string]cty.Value{
		"name":     cty.StringVal("web"),
		"comment":  cty.StringVal(""),
		"policy":   cty.StringVal(`{"Version":"2012-10-17","Statement":[]}`),
		"password": cty.StringVal("hunter2"),
		"size":     cty.NumberIntVal(3),
		"id":       cty.StringVal("i-123"),
		"tags":     cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod")}),
		"endpoint": cty.ObjectVal(map[string]cty.Value{"host": cty.StringVal("db.local"), "ip": cty.StringVal("10.0.0.1")}),
		"network":  cty.ObjectVal(map[string]cty.Value{"subnet": cty.StringVal("a")}),
		"rule": cty.ListVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80), "hits": cty.NumberIntVal(7)}),
			cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(443), "hits": cty.NumberIntVal(9)}),
		}),
		"setting": cty.MapVal(map[string]cty.Value{"x": cty.ObjectVal(map[string]cty.Value{"value": cty.StringVal("1")})}),
	})
	got := string(planner.ResourceConfig(addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: "web"}, nil, schema, v))
	want := `resource "test_thing" "web" {
  comment = null
  endpoint = {
    host = "db.local"
  }
  name     = "web"
  password = null # sensitive
  policy = jsonencode({
    Statement = []
    Version   = "2012-10-17"
  })
  size = 3
  tags = {
    env = "prod"
  }
  network {
    subnet = "a"
  }
  rule {
    port = 80
  }
  rule {
    port = 443
  }
  setting "x" {
    value = "1"
  }
}
`
	if got != want {
		t.Errorf("generated:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(got, "hunter2") || strings.Contains(got, "i-123") || strings.Contains(got, "10.0.0.1") {
		t.Error("the block holds a sensitive or computed-only value")
	}
}
