package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/rig-iac/rig/bench/gen"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/ui"
)

// BenchmarkOrderLayered builds the operation graph of the layered shape's
// first apply, with the dependencies OpenTofu records (transitive), and
// the order of operations shown with its plan: what rig does between
// planning and applying. "all" keeps every edge of the recorded
// dependencies, as rig graph and rig explain draw them; "apply" leaves out
// those other edges imply, as the apply does. It reports the graph's edges
// and the CPU time per operation (cpu-ms/op), which a busy machine
// inflates less than the elapsed time.
func BenchmarkOrderLayered(b *testing.B) {
	for _, n := range []int{1000, 3000} {
		cfg := load(b, gen.Options{Shape: gen.Layered, N: n, Seed: 1})
		set := providers()
		p, ds := planner.Make(context.Background(), cfg, state.New(), set, planner.Options{Parallelism: 10, Dependencies: plan.TransitiveDependencies})
		set.Close()
		if ds.HasErrors() {
			b.Fatal(ds.Err())
		}
		for _, v := range []struct {
			name string
			opts apply.OrderOptions
		}{{"all", apply.OrderOptions{}}, {"apply", apply.OrderOptions{OmitImplied: true}}} {
			b.Run(fmt.Sprintf("%s/N=%d", v.name, n), func(b *testing.B) {
				var edges int
				defer reportCPU(b)()
				for b.Loop() {
					g, ds := apply.OrderWith(p, v.opts)
					if ds.HasErrors() {
						b.Fatal(ds.Err())
					}
					if w := ui.OrderWaves(g, nil); len(w) != 10 {
						b.Fatalf("%d waves, want 10", len(w))
					}
					edges = g.G.EdgeCount()
				}
				b.ReportMetric(float64(edges), "edges")
			})
		}
	}
}
