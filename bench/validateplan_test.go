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
// Loading is left out of the time.
func BenchmarkValidatedPlanNoop(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
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
				if ds := planner.Validate(context.Background(), cfg, set, planner.ValidateOptions{}); ds.HasErrors() {
					b.Fatal(ds.Err())
				}
				if p := mustPlan(b, cfg, prior, plan.NormalMode); p.HasChanges() {
					b.Fatal("no-op plan has changes")
				}
			}
		})
	}
}

func loadDir(b *testing.B, dir string) *config.Module {
	b.Helper()
	cfg, ds := config.LoadDir(dir)
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	return cfg
}
