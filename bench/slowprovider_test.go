package bench

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkSlowProviderNoopPlan times a no-op plan of one resource with
// count = RIG_BENCH_N (300) against a provider whose every read, plan and
// apply takes 50 ms (the test provider plugin with
// RIG_TESTPROVIDER_CALL_DELAY), at -parallelism=10 and 50, one round per
// iteration: with rig built from this tree, an earlier rig
// (RIG_BENCH_RIG_BEFORE, optional) and OpenTofu (RIG_BENCH_TOFU,
// optional). Its floor is the calls (a read and a plan per instance) times
// 50 ms, divided by the parallelism.
func BenchmarkSlowProviderNoopPlan(b *testing.B) {
	n := envInt("RIG_BENCH_N", 300)
	const delay = 50 * time.Millisecond
	work := b.TempDir()
	tools := append([]cliTool{buildRig(b, filepath.Join(work, "bin"))}, beforeTools()...)
	tools = append(tools, otherTools("RIG_BENCH_TOFU")...)
	plugins := filepath.Join(work, "plugins")
	cmd := exec.Command("go", "build", "-o", filepath.Join(plugins, "terraform-provider-test"), "./internal/provider/plugin/testdata/testprovider")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the test provider: %v\n%s", err, out)
	}
	writeFiles(b, work, map[string]string{"dev.tfrc": fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"rig/test\" = %q\n  }\n  direct {}\n}\n", plugins)})
	env := cliEnv(filepath.Join(work, "dev.tfrc"), "RIG_TESTPROVIDER_CALL_DELAY="+delay.String())
	config := fmt.Sprintf(`terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}

resource "test_thing" "t" {
  count = %d
  name  = "t${count.index}"
}
`, n)
	dirs := map[string]string{}
	for _, t := range tools {
		dir := filepath.Join(work, strings.ReplaceAll(t.name, " ", "-"))
		writeFiles(b, dir, map[string]string{"main.tf": config})
		t.run(b, dir, env, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=50")
		dirs[t.name] = dir
	}
	parallelisms := []int{10, 50}
	times := map[string][][]time.Duration{} // tool → parallelism → rounds
	for b.Loop() {
		for i, p := range parallelisms {
			for _, t := range tools {
				if times[t.name] == nil {
					times[t.name] = make([][]time.Duration, len(parallelisms))
				}
				r := t.run(b, dirs[t.name], env, "plan", "-input=false", "-no-color", fmt.Sprintf("-parallelism=%d", p))
				times[t.name][i] = append(times[t.name][i], r.wall)
			}
		}
	}
	b.StopTimer()
	var table strings.Builder
	fmt.Fprintf(&table, "\nno-op plan of count = %d, every call %s, medians\n\n| -parallelism |", n, delay)
	for _, t := range tools {
		fmt.Fprintf(&table, " %s |", t.name)
	}
	table.WriteString(" floor |\n|---:|" + strings.Repeat("---:|", len(tools)+1) + "\n")
	for i, p := range parallelisms {
		fmt.Fprintf(&table, "| %d |", p)
		for _, t := range tools {
			m := median(times[t.name][i])
			fmt.Fprintf(&table, " %s |", seconds(m))
			b.ReportMetric(m.Seconds(), fmt.Sprintf("%s-p%d-s", strings.ReplaceAll(t.name, " ", "-"), p))
		}
		fmt.Fprintf(&table, " %s |\n", seconds(time.Duration(2*n)*delay/time.Duration(p)))
	}
	b.Log(table.String())
}
