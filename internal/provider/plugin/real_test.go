package plugin

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// realProviders are provider modules known to build from the Go module
// proxy (docs/design.md §9); each test case plans and applies through one.
var realProviders = []struct {
	name, module, version string
	run                   func(t *testing.T, p *Provider)
}{
	{"null", "github.com/terraform-providers/terraform-provider-null", "v1.0.1-0.20260824155049-3827b35ad520", runNull},
	{"random", "github.com/terraform-providers/terraform-provider-random", "v1.3.2-0.20260824155315-e1092b0cfc07", runRandom},
	{"time", "github.com/hashicorp/terraform-provider-time", "v0.14.2", runTime},
}

// TestRealProviders drives real provider plugins, built from the module
// proxy once and cached under the user cache directory. It is slow the
// first time and needs the network, so it runs only with
// RIG_TEST_REAL_PROVIDERS=1.
func TestRealProviders(t *testing.T) {
	if os.Getenv("RIG_TEST_REAL_PROVIDERS") != "1" {
		t.Skip("set RIG_TEST_REAL_PROVIDERS=1 to build and drive real providers")
	}
	for _, rp := range realProviders {
		t.Run(rp.name, func(t *testing.T) {
			bin := installProvider(t, rp.module, rp.version)
			p, err := Start(Meta{Path: bin, Provider: addrs.NewDefaultProvider(rp.name), Version: rp.version})
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			defer p.Close()
			t.Logf("%s speaks protocol %d", rp.module, p.ProtocolVersion())
			ctx := context.Background()
			schemas, ds := p.GetProviderSchema(ctx)
			if ds.HasErrors() {
				t.Fatalf("GetProviderSchema: %v", ds.Err())
			}
			cfg := objectWith(schemas.Provider.Block, nil)
			if ds := p.ValidateProviderConfig(ctx, cfg); ds.HasErrors() {
				t.Fatalf("ValidateProviderConfig: %v", ds.Err())
			}
			if ds := p.ConfigureProvider(ctx, provider.ConfigureRequest{TerraformVersion: "1.10.0", Config: cfg}); ds.HasErrors() {
				t.Fatalf("ConfigureProvider: %v", ds.Err())
			}
			rp.run(t, p)
			if err := p.Stop(ctx); err != nil {
				t.Errorf("Stop: %v", err)
			}
		})
	}
}

// installProvider returns the cached binary of module@version, building it
// first if needed; it skips the test when the build fails (no network, or
// the module is not available).
func installProvider(t *testing.T, module, version string) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no cache directory: %v", err)
	}
	dir := filepath.Join(cache, "rig-providers", filepath.Base(module), version)
	bin := filepath.Join(dir, filepath.Base(module))
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	cmd := exec.Command("go", "install", module+"@"+version)
	cmd.Env = append(os.Environ(), "GONOSUMDB=github.com/terraform-providers/*", "GOFLAGS=-mod=mod", "GOBIN="+dir)
	cmd.Dir = t.TempDir() // outside rig's module
	if out, err := cmd.CombinedOutput(); err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		t.Skipf("cannot build %s@%s: %s", module, version, strings.TrimSpace(lines[len(lines)-1]))
	}
	return bin
}

// objectWith returns an object of b's type with the given attributes set
// and everything else null (nested block collections empty).
func objectWith(b *provider.Block, set map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for name, ty := range b.ImpliedType().AttributeTypes() {
		vals[name] = cty.NullVal(ty)
		if nb, ok := b.BlockTypes[name]; ok {
			switch {
			case ty.IsListType():
				vals[name] = cty.ListValEmpty(ty.ElementType())
			case ty.IsSetType():
				vals[name] = cty.SetValEmpty(ty.ElementType())
			case ty.IsMapType():
				vals[name] = cty.MapValEmpty(ty.ElementType())
			case nb.Nesting == provider.NestingGroup:
				vals[name] = objectWith(&nb.Block, nil)
			}
		}
	}
	for k, v := range set {
		vals[k] = v
	}
	return cty.ObjectVal(vals)
}

// create plans and applies a new object of typeName from cfg.
func create(t *testing.T, p *Provider, typeName string, cfg cty.Value) (planned, applied cty.Value) {
	t.Helper()
	ctx := context.Background()
	schemas, _ := p.GetProviderSchema(ctx)
	block := schemas.ResourceTypes[typeName].Block
	if ds := p.ValidateResourceConfig(ctx, typeName, cfg); ds.HasErrors() {
		t.Fatalf("ValidateResourceConfig: %v", ds.Err())
	}
	null := cty.NullVal(block.ImpliedType())
	plan := p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: typeName, PriorState: null, ProposedNewState: provider.ProposedNew(block, null, cfg), Config: cfg})
	if plan.Diagnostics.HasErrors() {
		t.Fatalf("PlanResourceChange: %v", plan.Diagnostics.Err())
	}
	resp := p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: typeName, PriorState: null, PlannedState: plan.PlannedState, Config: cfg, PlannedPrivate: plan.PlannedPrivate})
	if resp.Diagnostics.HasErrors() {
		t.Fatalf("ApplyResourceChange: %v", resp.Diagnostics.Err())
	}
	return plan.PlannedState, resp.NewState
}

// destroy plans and applies the deletion of state.
func destroy(t *testing.T, p *Provider, typeName string, state cty.Value) {
	t.Helper()
	ctx := context.Background()
	null := cty.NullVal(state.Type())
	plan := p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: typeName, PriorState: state, ProposedNewState: null, Config: null})
	if plan.Diagnostics.HasErrors() || !plan.PlannedState.IsNull() {
		t.Fatalf("destroy plan: %#v %v", plan.PlannedState, plan.Diagnostics.Err())
	}
	resp := p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: typeName, PriorState: state, PlannedState: null, Config: null})
	if resp.Diagnostics.HasErrors() || !resp.NewState.IsNull() {
		t.Fatalf("destroy apply: %#v %v", resp.NewState, resp.Diagnostics.Err())
	}
}

func runNull(t *testing.T, p *Provider) {
	ctx := context.Background()
	schemas, _ := p.GetProviderSchema(ctx)
	block := schemas.ResourceTypes["null_resource"].Block
	cfg := objectWith(block, map[string]cty.Value{"triggers": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")})})
	planned, state := create(t, p, "null_resource", cfg)
	if planned.GetAttr("id").IsKnown() {
		t.Errorf("planned id is known: %#v", planned.GetAttr("id"))
	}
	if id := state.GetAttr("id"); !id.IsKnown() || id.IsNull() {
		t.Fatalf("applied id = %#v", id)
	}
	read := p.ReadResource(ctx, provider.ReadRequest{TypeName: "null_resource", PriorState: state})
	if read.Diagnostics.HasErrors() || !read.NewState.RawEquals(state) {
		t.Errorf("ReadResource = %#v, %v", read.NewState, read.Diagnostics.Err())
	}
	changed := objectWith(block, map[string]cty.Value{"triggers": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("2")})})
	plan := p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: "null_resource", PriorState: state, ProposedNewState: provider.ProposedNew(block, state, changed), Config: changed})
	if plan.Diagnostics.HasErrors() || len(plan.RequiresReplace) == 0 {
		t.Errorf("changing triggers: RequiresReplace = %#v, %v", plan.RequiresReplace, plan.Diagnostics.Err())
	}
	destroy(t, p, "null_resource", state)
}

func runRandom(t *testing.T, p *Provider) {
	ctx := context.Background()
	schemas, _ := p.GetProviderSchema(ctx)
	sch := schemas.ResourceTypes["random_string"]
	cfg := objectWith(sch.Block, map[string]cty.Value{"length": cty.NumberIntVal(12)})
	planned, state := create(t, p, "random_string", cfg)
	if planned.GetAttr("result").IsKnown() {
		t.Errorf("planned result is known: %#v", planned.GetAttr("result"))
	}
	if r := state.GetAttr("result"); !r.IsKnown() || r.IsNull() || len(r.AsString()) != 12 {
		t.Fatalf("applied result = %#v", r)
	}
	raw, err := ctyjson.Marshal(state, state.Type())
	if err != nil {
		t.Fatal(err)
	}
	up := p.UpgradeResourceState(ctx, provider.UpgradeRequest{TypeName: "random_string", Version: sch.Version, RawStateJSON: raw})
	if up.Diagnostics.HasErrors() || !up.UpgradedState.RawEquals(state) {
		t.Errorf("UpgradeResourceState = %#v, %v", up.UpgradedState, up.Diagnostics.Err())
	}
	imp := p.ImportResourceState(ctx, provider.ImportRequest{TypeName: "random_string", ID: "imported-value"})
	if imp.Diagnostics.HasErrors() || len(imp.Imported) != 1 || imp.Imported[0].State.GetAttr("result").AsString() != "imported-value" {
		t.Errorf("ImportResourceState = %#v, %v", imp.Imported, imp.Diagnostics.Err())
	}
	destroy(t, p, "random_string", state)
}

func runTime(t *testing.T, p *Provider) {
	schemas, _ := p.GetProviderSchema(context.Background())
	cfg := objectWith(schemas.ResourceTypes["time_static"].Block, map[string]cty.Value{"triggers": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")})})
	planned, state := create(t, p, "time_static", cfg)
	if planned.GetAttr("rfc3339").IsKnown() {
		t.Errorf("planned rfc3339 is known: %#v", planned.GetAttr("rfc3339"))
	}
	if r := state.GetAttr("rfc3339"); !r.IsKnown() || r.IsNull() {
		t.Fatalf("applied rfc3339 = %#v", r)
	}
	destroy(t, p, "time_static", state)
}
