package bench

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/bench/gen"
	"github.com/rig-iac/rig/internal/planner"
)

// BenchmarkValidate measures the validation plan, apply, destroy and
// refresh run before planning (planner.Validate, as `rig validate` runs
// it): the layered shape has a resource block per instance, the count
// shape a count resource per layer, which is validated once.
func BenchmarkValidate(b *testing.B) {
	for _, shape := range []gen.Shape{gen.Layered, gen.Count} {
		b.Run(string(shape), func(b *testing.B) {
			forSizes(b, func(b *testing.B, n int) {
				cfg := load(b, gen.Options{Shape: shape, N: n, Seed: 1})
				set := providers()
				defer set.Close()
				peak := startPeak()
				for b.Loop() {
					if ds := planner.Validate(context.Background(), cfg, set, planner.ValidateOptions{}); ds.HasErrors() {
						b.Fatal(ds.Err())
					}
				}
				peak.report(b)
			})
		})
	}
}
