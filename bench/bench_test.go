package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/rig-iac/rig/bench/gen"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/ui"
)

var sizes = []int{1000, 10000, 100000}

// peakHeap samples the live heap while a benchmark runs and reports its
// maximum as peak-heap-MB.
type peakHeap struct {
	stop chan struct{}
	wg   sync.WaitGroup
	max  atomic.Uint64
}

func startPeak() *peakHeap {
	// Leave the previous benchmark's garbage out of this one's peak.
	runtime.GC()
	p := &peakHeap{stop: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		var ms runtime.MemStats
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > p.max.Load() {
				p.max.Store(ms.HeapAlloc)
			}
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

func (p *peakHeap) report(b *testing.B) {
	close(p.stop)
	p.wg.Wait()
	b.ReportMetric(float64(p.max.Load())/(1<<20), "peak-heap-MB")
}

func load(b *testing.B, o gen.Options) *config.Module {
	b.Helper()
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(gen.Generate(o)), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg, ds := config.LoadDir(dir)
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	return cfg
}

func providers() *provider.Set {
	return provider.NewSet(provider.Factories{
		addrs.NewBuiltInProvider("terraform"): func() (provider.Interface, error) { return builtin.NewTerraform(), nil },
	})
}

func layered(n, version int) gen.Options {
	return gen.Options{Shape: gen.Layered, N: n, Seed: 1, Version: version, UpdateFraction: 0.1, ReplaceFraction: 0.1}
}

// mustPlan plans with direct recorded dependencies (rig.hcl's
// recorded_dependencies = "reduced"): the layered shape gives every
// instance a resource block of its own in ten layers, where the
// transitive lists OpenTofu records would measure little but themselves
// (bench/README.md, "Modules"); the count and modules shapes measure them.
func mustPlan(b testing.TB, cfg *config.Module, prior *state.State, mode plan.Mode) *plan.Plan {
	b.Helper()
	set := providers()
	defer set.Close()
	p, ds := planner.Make(context.Background(), cfg, prior, set, planner.Options{Mode: mode, Parallelism: 10, Dependencies: plan.ReducedDependencies})
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	return p
}

func mustApply(b testing.TB, cfg *config.Module, p *plan.Plan) *state.State {
	b.Helper()
	set := providers()
	defer set.Close()
	s, ds := apply.Apply(context.Background(), cfg, p, set, apply.Options{Parallelism: 10, SpliceDependencies: true})
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	return s
}

// applied returns the state after creating everything in cfg.
func applied(b *testing.B, cfg *config.Module) *state.State {
	b.Helper()
	return mustApply(b, cfg, mustPlan(b, cfg, state.New(), plan.NormalMode))
}

func forSizes(b *testing.B, fn func(b *testing.B, n int)) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) { fn(b, n) })
	}
}

func BenchmarkLoadConfig(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		dir := b.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(gen.Generate(layered(n, 1))), 0o644); err != nil {
			b.Fatal(err)
		}
		peak := startPeak()
		for b.Loop() {
			if _, ds := config.LoadDir(dir); ds.HasErrors() {
				b.Fatal(ds.Err())
			}
		}
		peak.report(b)
	})
}

func BenchmarkPlanFresh(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		cfg := load(b, layered(n, 1))
		peak := startPeak()
		for b.Loop() {
			mustPlan(b, cfg, state.New(), plan.NormalMode)
		}
		peak.report(b)
	})
}

func BenchmarkPlanNoop(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		cfg := load(b, layered(n, 1))
		prior := applied(b, cfg)
		peak := startPeak()
		for b.Loop() {
			if p := mustPlan(b, cfg, prior, plan.NormalMode); p.HasChanges() {
				b.Fatal("no-op plan has changes")
			}
		}
		peak.report(b)
	})
}

func BenchmarkOrder(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		cfg := load(b, gen.Options{Shape: gen.Mixed, N: n, Seed: 1})
		cfg2 := load(b, gen.Options{Shape: gen.Mixed, N: n, Seed: 1, Version: 2, UpdateFraction: 0.1, ReplaceFraction: 0.1})
		p := mustPlan(b, cfg2, applied(b, cfg), plan.NormalMode)
		peak := startPeak()
		for b.Loop() {
			if _, ds := apply.Order(p); ds.HasErrors() {
				b.Fatal(ds.Err())
			}
		}
		peak.report(b)
	})
}

// BenchmarkOrderRules is BenchmarkOrder with every edge's rule recorded,
// as rig explain builds the graph.
func BenchmarkOrderRules(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		cfg := load(b, gen.Options{Shape: gen.Mixed, N: n, Seed: 1})
		cfg2 := load(b, gen.Options{Shape: gen.Mixed, N: n, Seed: 1, Version: 2, UpdateFraction: 0.1, ReplaceFraction: 0.1})
		p := mustPlan(b, cfg2, applied(b, cfg), plan.NormalMode)
		peak := startPeak()
		for b.Loop() {
			if _, ds := apply.OrderWith(p, apply.OrderOptions{Rules: true}); ds.HasErrors() {
				b.Fatal(ds.Err())
			}
		}
		peak.report(b)
	})
}

func BenchmarkApplyCreate(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		cfg := load(b, layered(n, 1))
		p := mustPlan(b, cfg, state.New(), plan.NormalMode)
		peak := startPeak()
		for b.Loop() {
			mustApply(b, cfg, p)
		}
		peak.report(b)
	})
}

func BenchmarkApplyReplace10(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		cfg := load(b, layered(n, 1))
		cfg2 := load(b, gen.Options{Shape: gen.Layered, N: n, Seed: 1, Version: 2, ReplaceFraction: 0.1})
		p := mustPlan(b, cfg2, applied(b, cfg), plan.NormalMode)
		peak := startPeak()
		for b.Loop() {
			mustApply(b, cfg2, p)
		}
		peak.report(b)
	})
}

func BenchmarkDestroy(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		cfg := load(b, layered(n, 1))
		prior := applied(b, cfg)
		peak := startPeak()
		for b.Loop() {
			mustApply(b, cfg, mustPlan(b, cfg, prior, plan.DestroyMode))
		}
		peak.report(b)
	})
}

func BenchmarkStateMarshal(b *testing.B) {
	forSizes(b, func(b *testing.B, n int) {
		s := applied(b, load(b, layered(n, 1)))
		for b.Loop() {
			if _, err := statefile.Marshal(s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRenderPlan measures the human-readable plan text: a fresh
// config's plan (every object created) and a changed config's plan against
// applied state (updates and replacements), rendered with the provider's
// schemas as the CLI does.
func BenchmarkRenderPlan(b *testing.B) {
	set := providers()
	defer set.Close()
	schemas, ds := set.Schemas(context.Background(), addrs.NewBuiltInProvider("terraform"))
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	src := ui.ProviderSchemas{addrs.NewBuiltInProvider("terraform"): schemas}
	for _, kind := range []string{"create", "change"} {
		b.Run(kind, func(b *testing.B) {
			forSizes(b, func(b *testing.B, n int) {
				cfg := load(b, layered(n, 1))
				p := mustPlan(b, cfg, state.New(), plan.NormalMode)
				if kind == "change" {
					p = mustPlan(b, load(b, layered(n, 2)), mustApply(b, cfg, p), plan.NormalMode)
				}
				peak := startPeak()
				for b.Loop() {
					if err := ui.RenderPlan(io.Discard, p, src, ui.RenderOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				peak.report(b)
			})
		})
	}
}
