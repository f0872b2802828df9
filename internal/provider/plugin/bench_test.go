package plugin

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// BenchmarkPlanResourceChange measures one PlanResourceChange round trip
// to the test provider (encode, gRPC over the plugin's socket, the
// provider's work, decode): the per-call overhead a plan pays per instance.
func BenchmarkPlanResourceChange(b *testing.B) {
	for _, v := range []string{"5", "6"} {
		b.Run("protocol"+v, func(b *testing.B) {
			p := startTest(b, v)
			ctx := context.Background()
			block := thingSchema().Block
			null := cty.NullVal(block.ImpliedType())
			cfg := thingConfig(cty.StringVal("bench"), map[string]cty.Value{
				"tags": cty.MapVal(map[string]cty.Value{"env": cty.StringVal("bench"), "team": cty.StringVal("infra")}),
				"dyn":  cty.UnknownVal(cty.DynamicPseudoType),
			})
			req := provider.PlanRequest{TypeName: "test_thing", PriorState: null, ProposedNewState: provider.ProposedNew(block, null, cfg), Config: cfg}
			if resp := p.PlanResourceChange(ctx, req); resp.Diagnostics.HasErrors() {
				b.Fatal(resp.Diagnostics.Err())
			}
			b.ReportAllocs()
			for b.Loop() {
				if resp := p.PlanResourceChange(ctx, req); resp.Diagnostics.HasErrors() {
					b.Fatal(resp.Diagnostics.Err())
				}
			}
		})
	}
}

// BenchmarkValueCodec measures the client's share of a call: encoding one
// object as MessagePack and decoding it back.
func BenchmarkValueCodec(b *testing.B) {
	ty := thingSchema().Block.ImpliedType()
	v := thingConfig(cty.StringVal("bench"), map[string]cty.Value{
		"id":   cty.UnknownVal(cty.String).RefineNotNull(),
		"tags": cty.MapVal(map[string]cty.Value{"env": cty.StringVal("bench"), "team": cty.StringVal("infra")}),
	})
	b.ReportAllocs()
	for b.Loop() {
		dv, err := encodeValue(v, ty)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := decodeValue(dv, ty); err != nil {
			b.Fatal(err)
		}
	}
}
