package plugin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

var ctyCmp = cmp.Options{
	cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) }),
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
}

func TestProtocolNegotiation(t *testing.T) {
	for _, tt := range []struct {
		offered string
		want    int
	}{
		{"5", 5},
		{"6", 6},
		{"", 6},
	} {
		t.Run("offered="+tt.offered, func(t *testing.T) {
			if got := startTest(t, tt.offered).ProtocolVersion(); got != tt.want {
				t.Fatalf("ProtocolVersion() = %d, want %d", got, tt.want)
			}
		})
	}
}

func thingSchema() provider.Schema {
	attrs := func(m map[string]*provider.Attribute) map[string]*provider.Attribute { return m }
	nested := func(nesting provider.NestingMode, min, max int, a map[string]*provider.Attribute) *provider.NestedBlock {
		return &provider.NestedBlock{Block: provider.Block{Attributes: a, BlockTypes: map[string]*provider.NestedBlock{}}, Nesting: nesting, MinItems: min, MaxItems: max}
	}
	return provider.Schema{Version: 1, Block: &provider.Block{
		Description: "A thing.",
		Attributes: attrs(map[string]*provider.Attribute{
			"id":      {Type: cty.String, Computed: true},
			"name":    {Type: cty.String, Required: true},
			"size":    {Type: cty.Number, Optional: true, Computed: true},
			"tags":    {Type: cty.Map(cty.String), Optional: true},
			"dyn":     {Type: cty.DynamicPseudoType, Optional: true},
			"created": {Type: cty.String, Computed: true, Sensitive: true},
		}),
		BlockTypes: map[string]*provider.NestedBlock{
			"rule": nested(provider.NestingList, 0, 3, map[string]*provider.Attribute{
				"port":  {Type: cty.Number, Required: true},
				"proto": {Type: cty.String, Optional: true},
			}),
			"settings": nested(provider.NestingSingle, 0, 0, map[string]*provider.Attribute{"enabled": {Type: cty.Bool, Optional: true}}),
			"labels":   nested(provider.NestingMap, 0, 0, map[string]*provider.Attribute{"value": {Type: cty.String, Optional: true}}),
			"group":    nested(provider.NestingGroup, 0, 0, map[string]*provider.Attribute{"x": {Type: cty.String, Optional: true}}),
			"set_rule": nested(provider.NestingSet, 0, 0, map[string]*provider.Attribute{"cidr": {Type: cty.String, Required: true}}),
		},
	}}
}

func TestGetProviderSchema(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		ctx := context.Background()
		schemas, ds := p.GetProviderSchema(ctx)
		if len(ds) > 0 {
			t.Fatalf("diagnostics: %v", ds)
		}
		if diff := cmp.Diff(thingSchema(), schemas.ResourceTypes["test_thing"], ctyCmp); diff != "" {
			t.Errorf("test_thing schema (-want +got):\n%s", diff)
		}
		wantProvider := provider.Schema{Block: &provider.Block{
			Attributes: map[string]*provider.Attribute{"region": {Type: cty.String, Optional: true}},
			BlockTypes: map[string]*provider.NestedBlock{},
		}}
		if diff := cmp.Diff(wantProvider, schemas.Provider, ctyCmp); diff != "" {
			t.Errorf("provider schema (-want +got):\n%s", diff)
		}
		if got := schemas.DataSources["test_echo"].Block.ImpliedType(); !got.Equals(cty.Object(map[string]cty.Type{"input": cty.String, "output": cty.String})) {
			t.Errorf("test_echo type = %#v", got)
		}
		_, hasNested := schemas.ResourceTypes["test_nested"]
		if want := p.ProtocolVersion() == 6; hasNested != want {
			t.Errorf("test_nested present = %v, want %v", hasNested, want)
		}
		again, _ := p.GetProviderSchema(ctx)
		if again != schemas {
			t.Errorf("second GetProviderSchema returned a new value; want the cached one")
		}
	})
}

func TestNestedAttributeSchema(t *testing.T) {
	p := startTest(t, "6")
	schemas, ds := p.GetProviderSchema(context.Background())
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	want := provider.Schema{Block: &provider.Block{
		Attributes: map[string]*provider.Attribute{
			"id": {Type: cty.String, Computed: true},
			"items": {Optional: true, NestedType: &provider.NestedObject{Nesting: provider.NestingList, Attributes: map[string]*provider.Attribute{
				"a": {Type: cty.String, Optional: true},
				"b": {Type: cty.Number, Optional: true},
			}}},
			"single": {Optional: true, NestedType: &provider.NestedObject{Nesting: provider.NestingSingle, Attributes: map[string]*provider.Attribute{
				"c": {Type: cty.String, Optional: true},
			}}},
		},
		BlockTypes: map[string]*provider.NestedBlock{},
	}}
	if diff := cmp.Diff(want, schemas.ResourceTypes["test_nested"], ctyCmp); diff != "" {
		t.Fatalf("test_nested schema (-want +got):\n%s", diff)
	}
	// Values of nested attribute types travel like any other.
	cfg := cty.ObjectVal(map[string]cty.Value{
		"id":     cty.NullVal(cty.String),
		"items":  cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.UnknownVal(cty.Number)})}),
		"single": cty.NullVal(cty.Object(map[string]cty.Type{"c": cty.String})),
	})
	resp := p.PlanResourceChange(context.Background(), provider.PlanRequest{TypeName: "test_nested", PriorState: cty.NilVal, ProposedNewState: cfg, Config: cfg})
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Err())
	}
	if got := resp.PlannedState.GetAttr("items"); !got.RawEquals(cfg.GetAttr("items")) {
		t.Errorf("planned items = %#v, want %#v", got, cfg.GetAttr("items"))
	}
}

// thingConfig returns a test_thing configuration with the given name and
// overrides, everything else null.
func thingConfig(name cty.Value, set map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for attr, ty := range thingSchema().Block.ImpliedType().AttributeTypes() {
		vals[attr] = cty.NullVal(ty)
	}
	vals["name"] = name
	vals["rule"] = cty.ListValEmpty(cty.Object(map[string]cty.Type{"port": cty.Number, "proto": cty.String}))
	vals["labels"] = cty.MapValEmpty(cty.Object(map[string]cty.Type{"value": cty.String}))
	vals["set_rule"] = cty.SetValEmpty(cty.Object(map[string]cty.Type{"cidr": cty.String}))
	for k, v := range set {
		vals[k] = v
	}
	return cty.ObjectVal(vals)
}

func configure(t *testing.T, p *Provider, region string) {
	t.Helper()
	ctx := context.Background()
	cfg := cty.ObjectVal(map[string]cty.Value{"region": cty.StringVal(region)})
	if ds := p.ValidateProviderConfig(ctx, cfg); ds.HasErrors() {
		t.Fatalf("ValidateProviderConfig: %v", ds.Err())
	}
	if ds := p.ConfigureProvider(ctx, provider.ConfigureRequest{TerraformVersion: "1.10.0", Config: cfg}); ds.HasErrors() {
		t.Fatalf("ConfigureProvider: %v", ds.Err())
	}
}

func TestResourceLifecycle(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		ctx := context.Background()
		configure(t, p, "eu")
		block := thingSchema().Block
		legacy := p.ProtocolVersion() == 5 // the test provider marks protocol 5 like the legacy SDK

		// Validate and plan a create whose configuration is partly unknown.
		unknownCfg := thingConfig(cty.StringVal("a"), map[string]cty.Value{
			"tags": cty.UnknownVal(cty.Map(cty.String)),
			"dyn":  cty.UnknownVal(cty.DynamicPseudoType),
			"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.UnknownVal(cty.Number).RefineNotNull(), "proto": cty.NullVal(cty.String)})}),
		})
		if ds := p.ValidateResourceConfig(ctx, "test_thing", unknownCfg); len(ds) > 0 {
			t.Fatalf("ValidateResourceConfig: %v", ds)
		}
		plan := p.PlanResourceChange(ctx, provider.PlanRequest{
			TypeName: "test_thing", PriorState: cty.NullVal(block.ImpliedType()),
			ProposedNewState: provider.ProposedNew(block, cty.NullVal(block.ImpliedType()), unknownCfg), Config: unknownCfg,
		})
		if len(plan.Diagnostics) > 0 {
			t.Fatalf("PlanResourceChange: %v", plan.Diagnostics)
		}
		id := plan.PlannedState.GetAttr("id")
		if id.IsKnown() || id.Range().CouldBeNull() {
			t.Errorf("planned id = %#v, want an unknown refined as not null", id)
		}
		if got := plan.PlannedState.GetAttr("dyn"); got.IsKnown() {
			t.Errorf("planned dyn = %#v, want unknown", got)
		}
		if got := plan.PlannedState.GetAttr("rule").Index(cty.NumberIntVal(0)).GetAttr("port"); got.IsKnown() || got.Range().CouldBeNull() {
			t.Errorf("planned rule[0].port = %#v, want an unknown refined as not null", got)
		}
		if got := plan.PlannedState.GetAttr("size"); !got.RawEquals(cty.NumberIntVal(1)) {
			t.Errorf("planned size = %#v, want 1", got)
		}
		if plan.LegacyTypeSystem != legacy {
			t.Errorf("LegacyTypeSystem = %v, want %v", plan.LegacyTypeSystem, legacy)
		}

		// Plan and apply the create with the configuration known.
		cfg := thingConfig(cty.StringVal("a"), map[string]cty.Value{
			"tags": cty.MapVal(map[string]cty.Value{"env": cty.StringVal("test")}),
			"dyn":  cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.True}),
		})
		null := cty.NullVal(block.ImpliedType())
		plan = p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: "test_thing", PriorState: null, ProposedNewState: provider.ProposedNew(block, null, cfg), Config: cfg})
		if plan.Diagnostics.HasErrors() {
			t.Fatalf("PlanResourceChange: %v", plan.Diagnostics.Err())
		}
		if string(plan.PlannedPrivate) != "planned:a" {
			t.Errorf("PlannedPrivate = %q, want %q", plan.PlannedPrivate, "planned:a")
		}
		applied := p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: "test_thing", PriorState: null, PlannedState: plan.PlannedState, Config: cfg, PlannedPrivate: plan.PlannedPrivate})
		if applied.Diagnostics.HasErrors() {
			t.Fatalf("ApplyResourceChange: %v", applied.Diagnostics.Err())
		}
		want := thingConfig(cty.StringVal("a"), map[string]cty.Value{
			"id":      cty.StringVal("id-a"),
			"size":    cty.NumberIntVal(1),
			"created": cty.StringVal("2024-01-02T03:04:05Z"),
			"tags":    cfg.GetAttr("tags"),
			"dyn":     cfg.GetAttr("dyn"),
		})
		if diff := cmp.Diff(want, applied.NewState, ctyCmp); diff != "" {
			t.Errorf("applied state (-want +got):\n%s", diff)
		}
		if string(applied.Private) != "planned:a" || applied.LegacyTypeSystem != legacy {
			t.Errorf("apply Private = %q, LegacyTypeSystem = %v", applied.Private, applied.LegacyTypeSystem)
		}

		// Read returns the object and passes the private bytes through.
		read := p.ReadResource(ctx, provider.ReadRequest{TypeName: "test_thing", PriorState: applied.NewState, Private: applied.Private})
		if read.Diagnostics.HasErrors() || !read.NewState.RawEquals(applied.NewState) || string(read.Private) != "planned:a" {
			t.Errorf("ReadResource = %#v, %q, %v", read.NewState, read.Private, read.Diagnostics)
		}

		// Renaming forces replacement.
		renamed := thingConfig(cty.StringVal("b"), map[string]cty.Value{"tags": cfg.GetAttr("tags"), "dyn": cfg.GetAttr("dyn")})
		plan = p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: "test_thing", PriorState: applied.NewState,
			ProposedNewState: provider.ProposedNew(block, applied.NewState, renamed), Config: renamed, PriorPrivate: applied.Private})
		if diff := cmp.Diff([]cty.Path{cty.GetAttrPath("name")}, plan.RequiresReplace, ctyCmp, cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) })); diff != "" {
			t.Errorf("RequiresReplace (-want +got):\n%s", diff)
		}
		if plan.PlannedState.GetAttr("id").IsKnown() {
			t.Errorf("replacement planned id is known: %#v", plan.PlannedState.GetAttr("id"))
		}

		// Delete: plan (a call only with plan_destroy) and apply.
		plan = p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: "test_thing", PriorState: applied.NewState, ProposedNewState: null, Config: null, PriorPrivate: applied.Private})
		if plan.Diagnostics.HasErrors() || !plan.PlannedState.IsNull() || string(plan.PlannedPrivate) != "planned:a" {
			t.Fatalf("delete plan = %#v, %q, %v", plan.PlannedState, plan.PlannedPrivate, plan.Diagnostics)
		}
		deleted := p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: "test_thing", PriorState: applied.NewState, PlannedState: plan.PlannedState, Config: null})
		if deleted.Diagnostics.HasErrors() || !deleted.NewState.IsNull() {
			t.Fatalf("delete apply = %#v, %v", deleted.NewState, deleted.Diagnostics)
		}

		// A read of an object that is gone returns null.
		gone := thingConfig(cty.StringVal("a"), map[string]cty.Value{"id": cty.StringVal("gone")})
		if read := p.ReadResource(ctx, provider.ReadRequest{TypeName: "test_thing", PriorState: gone}); !read.NewState.IsNull() || read.Diagnostics.HasErrors() {
			t.Errorf("ReadResource of a gone object = %#v, %v", read.NewState, read.Diagnostics)
		}
	})
}

func TestImportResourceState(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		resp := p.ImportResourceState(context.Background(), provider.ImportRequest{TypeName: "test_thing", ID: "i-123"})
		if resp.Diagnostics.HasErrors() {
			t.Fatal(resp.Diagnostics.Err())
		}
		if len(resp.Imported) != 1 {
			t.Fatalf("imported %d objects, want 1", len(resp.Imported))
		}
		got := resp.Imported[0]
		if got.TypeName != "test_thing" || string(got.Private) != "imported" || got.State.GetAttr("id").AsString() != "i-123" {
			t.Errorf("imported %s %#v private %q", got.TypeName, got.State, got.Private)
		}
	})
}

func TestUpgradeResourceState(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		ctx := context.Background()
		resp := p.UpgradeResourceState(ctx, provider.UpgradeRequest{TypeName: "test_thing", Version: 0, RawStateJSON: []byte(`{"id":"x","label":"old"}`)})
		if resp.Diagnostics.HasErrors() {
			t.Fatal(resp.Diagnostics.Err())
		}
		if got := resp.UpgradedState.GetAttr("name"); !got.RawEquals(cty.StringVal("old")) {
			t.Errorf("upgraded name = %#v, want \"old\"", got)
		}
		if !resp.UpgradedState.Type().Equals(thingSchema().Block.ImpliedType()) {
			t.Errorf("upgraded type = %#v", resp.UpgradedState.Type())
		}
		resp = p.UpgradeResourceState(ctx, provider.UpgradeRequest{TypeName: "test_thing", Version: 7, RawStateJSON: []byte(`{}`)})
		if !resp.Diagnostics.HasErrors() || resp.Diagnostics[0].Summary != "Unsupported schema version" {
			t.Errorf("diagnostics for a future version = %v", resp.Diagnostics)
		}
	})
}

func TestUpgradeFlatmap(t *testing.T) {
	p := startTest(t, "5")
	dv, ds, err := p.proto.upgradeResourceState(context.Background(), wireUpgradeRequest{typeName: "test_thing", flatmap: map[string]string{"id": "f", "name": "flat"}})
	if err != nil || ds.HasErrors() {
		t.Fatalf("upgrade: %v %v", err, ds)
	}
	v, err := decodeValue(dv, thingSchema().Block.ImpliedType())
	if err != nil {
		t.Fatal(err)
	}
	if got := v.GetAttr("name"); !got.RawEquals(cty.StringVal("flat")) {
		t.Errorf("name = %#v", got)
	}
}

func TestReadDataSource(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		ctx := context.Background()
		configure(t, p, "eu-west")
		cfg := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("region"), "output": cty.NullVal(cty.String)})
		if ds := p.ValidateDataResourceConfig(ctx, "test_echo", cfg); ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		resp := p.ReadDataSource(ctx, provider.ReadDataRequest{TypeName: "test_echo", Config: cfg})
		if resp.Diagnostics.HasErrors() {
			t.Fatal(resp.Diagnostics.Err())
		}
		if got := resp.State.GetAttr("output"); !got.RawEquals(cty.StringVal("eu-west")) {
			t.Errorf("output = %#v, want the configured region", got)
		}
	})
}

func TestFunctions(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		ctx := context.Background()
		fns, ds := p.GetFunctions(ctx)
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		want := map[string]provider.FunctionSpec{"upper": {
			Parameters: []provider.FunctionParameter{{Name: "s", Type: cty.String}},
			ReturnType: cty.String,
			Summary:    "Upper-cases a string.",
		}}
		if diff := cmp.Diff(want, fns, ctyCmp); diff != "" {
			t.Errorf("functions (-want +got):\n%s", diff)
		}
		got, err := p.CallFunction(ctx, "upper", []cty.Value{cty.StringVal("abc")})
		if err != nil || !got.RawEquals(cty.StringVal("ABC")) {
			t.Errorf("upper(\"abc\") = %#v, %v", got, err)
		}
		_, err = p.CallFunction(ctx, "upper", []cty.Value{cty.StringVal("")})
		var fe *provider.FunctionError
		if !errors.As(err, &fe) || fe.Argument == nil || *fe.Argument != 0 {
			t.Errorf("upper(\"\") error = %v, want a FunctionError about argument 0", err)
		}
		if _, err := p.CallFunction(ctx, "nope", nil); err == nil {
			t.Errorf("calling an undefined function succeeded")
		}
	})
}

// details renders diagnostics as "severity: summary: detail" lines.
func details(ds diag.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Severity.String()+": "+d.Summary+": "+d.Detail)
	}
	return out
}

func TestProviderDiagnostics(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		ctx := context.Background()
		rules := cty.ListVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80), "proto": cty.NullVal(cty.String)}),
			cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(70000), "proto": cty.NullVal(cty.String)}),
		})
		tests := []struct {
			name string
			got  func() diag.Diagnostics
			want []string
		}{
			{
				name: "attribute path",
				got: func() diag.Diagnostics {
					return p.ValidateResourceConfig(ctx, "test_thing", thingConfig(cty.StringVal("invalid"), nil))
				},
				want: []string{"error: Invalid name: The name \"invalid\" is reserved.\n\nAt attribute name."},
			},
			{
				name: "list index and map key paths",
				got: func() diag.Diagnostics {
					return p.ValidateResourceConfig(ctx, "test_thing", thingConfig(cty.StringVal("ok"), map[string]cty.Value{
						"rule": rules, "tags": cty.MapVal(map[string]cty.Value{"bad": cty.StringVal("x")}),
					}))
				},
				want: []string{
					"error: Invalid port: Ports go up to 65535.\n\nAt attribute rule[1].port.",
					"error: Invalid tag: At attribute tags[\"bad\"].",
				},
			},
			{
				name: "warning",
				got: func() diag.Diagnostics {
					return p.ValidateResourceConfig(ctx, "test_thing", thingConfig(cty.StringVal("warn"), nil))
				},
				want: []string{"warning: Questionable name: "},
			},
			{
				name: "provider configuration",
				got: func() diag.Diagnostics {
					return p.ValidateProviderConfig(ctx, cty.ObjectVal(map[string]cty.Value{"region": cty.StringVal("bad")}))
				},
				want: []string{"error: Invalid region: \"bad\" is not a region.\n\nAt attribute region."},
			},
			{
				name: "configure",
				got: func() diag.Diagnostics {
					return p.ConfigureProvider(ctx, provider.ConfigureRequest{TerraformVersion: "1.10.0", Config: cty.ObjectVal(map[string]cty.Value{"region": cty.StringVal("fail")})})
				},
				want: []string{"error: Configuration failed: terraform version 1.10.0"},
			},
			{
				name: "unknown resource type",
				got: func() diag.Diagnostics {
					return p.ValidateResourceConfig(ctx, "test_nope", cty.EmptyObjectVal)
				},
				want: []string{"error: Invalid resource type: The provider rig/test v0.0.1 does not support resource type \"test_nope\"."},
			},
			{
				name: "value not of the schema's type",
				got: func() diag.Diagnostics {
					return p.ValidateResourceConfig(ctx, "test_thing", cty.StringVal("x"))
				},
				want: []string{"error: Invalid value for provider: rig could not send the test_thing configuration to provider rig/test v0.0.1: encoding value as object: object required, but have string."},
			},
			{
				name: "undecodable response",
				got: func() diag.Diagnostics {
					return p.ReadDataSource(ctx, provider.ReadDataRequest{TypeName: "test_echo", Config: cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("garbage"), "output": cty.NullVal(cty.String)})}).Diagnostics
				},
				want: []string{"error: Invalid provider response: The provider rig/test v0.0.1 returned an invalid value from ReadDataSource: decoding value as object: an object is required. This is a bug in the provider; please report it to its developers."},
			},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if diff := cmp.Diff(tt.want, details(tt.got())); diff != "" {
					t.Errorf("diagnostics (-want +got):\n%s", diff)
				}
			})
		}
	})
}

func TestApplyPartialFailureKeepsState(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		ctx := context.Background()
		block := thingSchema().Block
		null := cty.NullVal(block.ImpliedType())
		cfg := thingConfig(cty.StringVal("fail-apply"), nil)
		plan := p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: "test_thing", PriorState: null, ProposedNewState: provider.ProposedNew(block, null, cfg), Config: cfg})
		resp := p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: "test_thing", PriorState: null, PlannedState: plan.PlannedState, Config: cfg})
		if !resp.Diagnostics.HasErrors() || resp.Diagnostics[0].Summary != "Apply failed" {
			t.Fatalf("diagnostics = %v, want the provider's error", resp.Diagnostics)
		}
		if got := resp.NewState.GetAttr("id"); !got.RawEquals(cty.StringVal("id-fail-apply")) {
			t.Errorf("partial state id = %#v", got)
		}
	})
}

func TestStopInterruptsApply(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		ctx := context.Background()
		block := thingSchema().Block
		null := cty.NullVal(block.ImpliedType())
		cfg := thingConfig(cty.StringVal("slow"), nil)
		plan := p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: "test_thing", PriorState: null, ProposedNewState: provider.ProposedNew(block, null, cfg), Config: cfg})
		done := make(chan provider.ApplyResponse)
		go func() {
			done <- p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: "test_thing", PriorState: null, PlannedState: plan.PlannedState, Config: cfg})
		}()
		if err := p.Stop(ctx); err != nil {
			t.Fatalf("Stop: %v", err)
		}
		resp := <-done
		if got := details(resp.Diagnostics); len(got) != 1 || !strings.HasPrefix(got[0], "error: Interrupted") {
			t.Errorf("apply after Stop: %v", got)
		}
	})
}

// TestProviderMeta sends a module's provider_meta value with a plan: the
// provider declares the schema (module_name) and sees the value, which it
// rejects when told to; without a value it gets a null one.
func TestProviderMeta(t *testing.T) {
	forEachProtocol(t, func(t *testing.T, p *Provider) {
		ctx := context.Background()
		schemas, ds := p.GetProviderSchema(ctx)
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		if schemas.ProviderMeta == nil || schemas.ProviderMeta.Block.Attributes["module_name"] == nil {
			t.Fatalf("provider_meta schema = %+v, want one with module_name", schemas.ProviderMeta)
		}
		configure(t, p, "eu")
		block := thingSchema().Block
		cfg := thingConfig(cty.StringVal("a"), nil)
		meta := func(name string) cty.Value {
			return cty.ObjectVal(map[string]cty.Value{"module_name": cty.StringVal(name)})
		}
		tests := []struct {
			meta    cty.Value
			wantErr bool
		}{
			{cty.NilVal, false},
			{meta("web"), false},
			{meta("reject-me"), true},
		}
		for _, tc := range tests {
			resp := p.PlanResourceChange(ctx, provider.PlanRequest{
				TypeName: "test_thing", PriorState: cty.NullVal(block.ImpliedType()),
				ProposedNewState: provider.ProposedNew(block, cty.NullVal(block.ImpliedType()), cfg), Config: cfg,
				ProviderMeta: tc.meta,
			})
			if got := resp.Diagnostics.HasErrors(); got != tc.wantErr || (got && !strings.Contains(resp.Diagnostics.Err().Error(), "module_name is reject-me")) {
				t.Errorf("provider_meta %#v: diagnostics %v, want error %v", tc.meta, resp.Diagnostics, tc.wantErr)
			}
		}
	})
}
