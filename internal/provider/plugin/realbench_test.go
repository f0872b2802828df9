package plugin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/provider"
	proto "github.com/rig-iac/rig/internal/provider/plugin/tfplugin5"
	"github.com/zclconf/go-cty/cty"
)

// realRandom returns the random provider's executable from the local mirror
// .ci/providers lays out (RIG_TEST_PROVIDER_MIRROR, else its default place),
// or skips.
func realRandom(b testing.TB) string {
	b.Helper()
	mirror := os.Getenv("RIG_TEST_PROVIDER_MIRROR")
	if mirror == "" {
		cache, _ := os.UserCacheDir()
		mirror = filepath.Join(cache, "rig-providers", "mirror")
	}
	matches, _ := filepath.Glob(filepath.Join(mirror, "registry.terraform.io", "hashicorp", "random", "*", "*", "terraform-provider-random*"))
	if len(matches) == 0 {
		b.Skipf("no random provider in the mirror %s (run .ci/providers)", mirror)
	}
	return matches[0]
}

var randomAddr = addrs.NewDefaultProvider("random")

// BenchmarkRealStartup measures starting the random provider, fetching its
// schema and ending it: what each provider costs a run once.
func BenchmarkRealStartup(b *testing.B) {
	exe := realRandom(b)
	ctx := context.Background()
	for b.Loop() {
		p, err := Start(Meta{Path: exe, Provider: randomAddr})
		if err != nil {
			b.Fatal(err)
		}
		if _, ds := p.GetProviderSchema(ctx); ds.HasErrors() {
			b.Fatal(ds.Err())
		}
		p.Close()
	}
}

// realPlanCall is one PlanResourceChange of a random_pet create, ready to
// send through rig's client (req) or the raw protocol-5 stub (raw, encoded
// once).
type realPlanCall struct {
	p   *Provider
	req provider.PlanRequest
	c5  *client5
	raw *proto.PlanResourceChange_Request
}

func setupRealPlan(tb testing.TB) realPlanCall {
	tb.Helper()
	exe := realRandom(tb)
	p, err := Start(Meta{Path: exe, Provider: randomAddr})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { p.Close() })
	ctx := context.Background()
	schemas, ds := p.GetProviderSchema(ctx)
	if ds.HasErrors() {
		tb.Fatal(ds.Err())
	}
	cfg := objectWith(schemas.Provider.Block, nil)
	if ds := p.ConfigureProvider(ctx, provider.ConfigureRequest{TerraformVersion: "1.10.0", Config: cfg}); ds.HasErrors() {
		tb.Fatal(ds.Err())
	}
	block := schemas.ResourceTypes["random_pet"].Block
	ty := block.ImpliedType()
	null := cty.NullVal(ty)
	config := objectWith(block, map[string]cty.Value{
		"length":  cty.NumberIntVal(3),
		"keepers": cty.MapVal(map[string]cty.Value{"image": cty.StringVal("ami-123"), "zone": cty.StringVal("a")}),
	})
	call := realPlanCall{p: p, req: provider.PlanRequest{TypeName: "random_pet", PriorState: null, ProposedNewState: provider.ProposedNew(block, null, config), Config: config}}
	c5, ok := p.proto.(*client5)
	if !ok {
		tb.Skip("the provider does not speak protocol 5")
	}
	enc := func(v cty.Value) *proto.DynamicValue {
		dv, err := encodeValue(v, ty)
		if err != nil {
			tb.Fatal(err)
		}
		return &proto.DynamicValue{Msgpack: dv.msgpack}
	}
	call.c5 = c5
	call.raw = &proto.PlanResourceChange_Request{TypeName: "random_pet", PriorState: enc(null), ProposedNewState: enc(call.req.ProposedNewState), Config: enc(config)}
	return call
}

func (c realPlanCall) viaRig(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if resp := c.p.PlanResourceChange(ctx, c.req); resp.Diagnostics.HasErrors() {
			b.Fatal(resp.Diagnostics.Err())
		}
	}
}

func (c realPlanCall) viaRaw(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		resp, err := c.c5.rpc.PlanResourceChange(ctx, c.raw)
		if err != nil || len(resp.GetDiagnostics()) > 0 {
			b.Fatal(err, resp.GetDiagnostics())
		}
	}
}

// BenchmarkRealPlan compares one PlanResourceChange of a random_pet create
// through rig's client (encode, gRPC, decode into cty) with the same call
// on the raw gRPC stub with the request encoded once: the difference is
// what rig adds to the provider's own RPC latency.
func BenchmarkRealPlan(b *testing.B) {
	call := setupRealPlan(b)
	b.Run("rig", call.viaRig)
	b.Run("raw", call.viaRaw)
}
