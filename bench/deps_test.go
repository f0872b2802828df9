package bench

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/rig-iac/rig/bench/gen"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
)

// BenchmarkRecordedDependencies plans and applies N = 10,000 instances of
// the layered shape (a resource block per instance) and of the count shape
// (a count resource per layer), with dependencies recorded transitively or
// reduced, and reports the dependencies recorded per object and the size
// of the state file.
func BenchmarkRecordedDependencies(b *testing.B) {
	modes := []struct {
		name string
		mode plan.DependencyMode
	}{{"transitive", plan.TransitiveDependencies}, {"reduced", plan.ReducedDependencies}}
	for _, shape := range []gen.Shape{gen.Layered, gen.Count} {
		for _, m := range modes {
			b.Run(string(shape)+"/"+m.name+"/N=10000", func(b *testing.B) {
				cfg := load(b, gen.Options{Shape: shape, N: 10000, Seed: 1})
				var s *state.State
				for b.Loop() {
					set := providers()
					p, ds := planner.Make(context.Background(), cfg, state.New(), set, planner.Options{Parallelism: 10, Dependencies: m.mode})
					set.Close()
					if ds.HasErrors() {
						b.Fatal(ds.Err())
					}
					s = mustApply(b, cfg, p)
				}
				deps, objects := 0, 0
				for _, addr := range s.Objects() {
					deps += len(s.Object(addr).Dependencies)
					objects++
				}
				data, err := statefile.Marshal(s)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(deps)/float64(objects), "deps/object")
				b.ReportMetric(float64(len(data))/1e6, "state-MB")
			})
		}
	}
}
