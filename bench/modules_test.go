package bench

import (
	"fmt"
	"testing"

	"github.com/rig-iac/rig/bench/gen"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
)

// loadTree writes the files of o to a temporary directory and loads the
// configuration with its child modules.
func loadTree(tb testing.TB, o gen.Options) *config.Module {
	tb.Helper()
	dir := tb.TempDir()
	if err := gen.Write(dir, o); err != nil {
		tb.Fatal(err)
	}
	cfg, ds := config.LoadTree(dir, config.TreeOptions{})
	if ds.HasErrors() {
		tb.Fatal(ds.Err())
	}
	return cfg
}

// modulesShape is the modules shape (or its flat twin) at n instances, in
// at least 100 module instances so that small sizes still have several per
// layer.
func modulesShape(shape gen.Shape, n int) gen.Options {
	return gen.Options{Shape: shape, N: n, Modules: max(n/100, 100), Seed: 1}
}

// TestModulesShapes checks that both shapes plan the same number of
// instances, and that the modules shape, once applied, plans no changes.
func TestModulesShapes(t *testing.T) {
	counts := map[gen.Shape]int{}
	for _, shape := range []gen.Shape{gen.ModulesFlat, gen.Modules} {
		cfg := loadTree(t, modulesShape(shape, 1000))
		p := mustPlan(t, cfg, state.New(), plan.NormalMode)
		counts[shape] = len(p.Changes)
		if shape != gen.Modules {
			continue
		}
		if p := mustPlan(t, cfg, mustApply(t, cfg, p), plan.NormalMode); p.HasChanges() {
			t.Errorf("%s: the plan after applying has changes", shape)
		}
	}
	if counts[gen.Modules] != 1000 || counts[gen.ModulesFlat] != 1000 {
		t.Errorf("planned instances: %v, want 1000 of each shape", counts)
	}
}

// BenchmarkPlanModules plans the modules shape and its flat twin from an
// empty state.
func BenchmarkPlanModules(b *testing.B) {
	for _, shape := range []gen.Shape{gen.ModulesFlat, gen.Modules} {
		b.Run(string(shape), func(b *testing.B) {
			for _, n := range []int{1000, 10000} {
				b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
					cfg := loadTree(b, modulesShape(shape, n))
					peak := startPeak()
					for b.Loop() {
						mustPlan(b, cfg, state.New(), plan.NormalMode)
					}
					peak.report(b)
				})
			}
		})
	}
}
