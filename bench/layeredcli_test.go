package bench

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/bench/gen"
	"github.com/rig-iac/rig/internal/command"
)

// rigCLI runs rig's command line in dir, as the rig binary would, and
// fails the benchmark unless it exits with code 0.
func rigCLI(b *testing.B, dir string, args ...string) {
	b.Helper()
	var stderr strings.Builder
	code := command.Main(append([]string{"-chdir=" + dir}, args...), command.Streams{In: strings.NewReader(""), Out: io.Discard, Err: &stderr})
	if code != 0 {
		b.Fatalf("rig %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
}

// BenchmarkCLILayered runs rig's apply (creating everything) and no-op plan
// end to end, state file included, on the layered shape with the
// dependencies OpenTofu records (every resource an object depends on,
// transitively: up to 561 per object at 1,000 instances, 8.5 MB of state).
func BenchmarkCLILayered(b *testing.B) {
	for _, n := range []int{1000, 3000} {
		dir := b.TempDir()
		if err := gen.Write(dir, gen.Options{Shape: gen.Layered, N: n, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		wd, err := os.Getwd()
		if err != nil {
			b.Fatal(err)
		}
		// -chdir changes the process's working directory.
		b.Cleanup(func() { _ = os.Chdir(wd) })
		statePath := filepath.Join(dir, "terraform.tfstate")
		b.Run(fmt.Sprintf("apply/N=%d", n), func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				b.StopTimer()
				os.Remove(statePath)
				os.Remove(statePath + ".backup")
				b.StartTimer()
				rigCLI(b, dir, "apply", "-auto-approve")
			}
		})
		b.Run(fmt.Sprintf("noop/N=%d", n), func(b *testing.B) {
			if _, err := os.Stat(statePath); err != nil {
				rigCLI(b, dir, "apply", "-auto-approve")
			}
			defer reportCPU(b)()
			for b.Loop() {
				rigCLI(b, dir, "plan", "-detailed-exitcode")
			}
		})
	}
}

// reportCPU reports the process's CPU time (user and system) per operation
// as cpu-ms/op when the returned function is called: on a machine shared
// with other work, elapsed time measures the neighbours as much as rig.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-start).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	}
}
