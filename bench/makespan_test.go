package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
	"github.com/rig-iac/rig/internal/state"
)

// makespanShape is a graph of test_thing resources: layers of the given
// widths, each instance referring to up to refs instances of the layer before.
type makespanShape struct {
	name   string
	layers []int
	refs   int
}

func (s makespanShape) config() string {
	var b strings.Builder
	for l, w := range s.layers {
		for i := range w {
			fmt.Fprintf(&b, "resource \"test_thing\" \"l%d_%d\" {\n  key = \"l%d_%d\"\n", l, i, l, i)
			if l > 0 {
				var refs []string
				prev := s.layers[l-1]
				for k := range min(s.refs, prev) {
					refs = append(refs, fmt.Sprintf("test_thing.l%d_%d.id", l-1, (i*7+k*13)%prev))
				}
				fmt.Fprintf(&b, "  ref = [%s]\n", strings.Join(refs, ", "))
			}
			b.WriteString("}\n")
		}
	}
	return b.String()
}

// ideal is the lower bound on the makespan the targets use: the longer of
// the critical path and N/parallelism operations, each taking op.
func (s makespanShape) ideal(parallelism int, op time.Duration) time.Duration {
	n := 0
	for _, w := range s.layers {
		n += w
	}
	critical := time.Duration(len(s.layers)) * op
	packed := time.Duration((n+parallelism-1)/parallelism) * op
	return max(critical, packed)
}

func repeat(w, times int) []int {
	out := make([]int, times)
	for i := range out {
		out[i] = w
	}
	return out
}

// BenchmarkMakespan applies graphs whose every operation takes 50ms and
// reports the apply's duration over the ideal (1.00 is perfect scheduling).
func BenchmarkMakespan(b *testing.B) {
	const op = 50 * time.Millisecond
	const parallelism = 10
	shapes := []makespanShape{
		{name: "wide", layers: []int{1, 200}, refs: 1},
		{name: "deep", layers: repeat(1, 50), refs: 1},
		{name: "layered", layers: repeat(40, 10), refs: 3},
	}
	for _, shape := range shapes {
		b.Run(shape.name, func(b *testing.B) {
			dir := b.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(shape.config()), 0o644); err != nil {
				b.Fatal(err)
			}
			cfg, ds := config.LoadDir(dir)
			if ds.HasErrors() {
				b.Fatal(ds.Err())
			}
			var total time.Duration
			for b.Loop() {
				prov := providertest.New()
				set := provider.NewSet(prov.Factories())
				p, ds := planner.Make(context.Background(), cfg, state.New(), set, planner.Options{})
				if ds.HasErrors() {
					b.Fatal(ds.Err())
				}
				prov.SleepAll(op)
				start := time.Now()
				if _, ds := apply.Apply(context.Background(), cfg, p, set, apply.Options{Parallelism: parallelism}); ds.HasErrors() {
					b.Fatal(ds.Err())
				}
				total += time.Since(start)
				set.Close()
			}
			b.ReportMetric(float64(total)/float64(b.N)/float64(shape.ideal(parallelism, op)), "makespan/ideal")
		})
	}
}
