package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rig-iac/rig/bench/gen"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
)

// BenchmarkValidatedPlanNoop measures what `rig plan` does after loading
// the configuration: the validation run first, on a configuration
// nothing has checked yet, then the no-op plan of the layered shape.
// Validation keeps its graph for the plan (as a session's does).
// Loading is left out of the time. The plan alone is measured too, so
// that the difference is what validation adds to a plan.
func BenchmarkValidatedPlanNoop(b *testing.B) {
	for _, validate := range []bool{true, false} {
		for _, n := range []int{1000, 10000} {
			b.Run(fmt.Sprintf("validate=%t/N=%d", validate, n), func(b *testing.B) { benchValidatedPlan(b, n, validate) })
		}
	}
}

func benchValidatedPlan(b *testing.B, n int, validate bool) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(gen.Generate(layered(n, 1))), 0o644); err != nil {
		b.Fatal(err)
	}
	prior := applied(b, loadDir(b, dir))
	set := providers()
	defer set.Close()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		cfg := loadDir(b, dir)
		b.StartTimer()
		if validate {
			if ds := planner.Validate(context.Background(), cfg, set, planner.ValidateOptions{ForPlan: true, Dependencies: plan.ReducedDependencies}); ds.HasErrors() {
				b.Fatal(ds.Err())
			}
		}
		if p := mustPlan(b, cfg, prior, plan.NormalMode); p.HasChanges() {
			b.Fatal("no-op plan has changes")
		}
	}
}

// loadDir loads the configuration in dir.
func loadDir(b *testing.B, dir string) *config.Module {
	b.Helper()
	cfg, ds := config.LoadDir(dir)
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	return cfg
}
