package cloudbench

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSmoke runs the steps with rig on 40 objects of a fast cloud that
// limits the rate: each step succeeds, and the calls are those the steps
// imply (one read per object in a no-op plan; a create and a delete per
// object). Skipped with -short.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds rig and slowcloud")
	}
	tl := build(t)
	c := startCloud(t, tl, cloudConfig{latency: 5 * time.Millisecond, jitter: 2 * time.Millisecond, rate: 2000})
	const n = 40
	results := runSteps(t, tl, c, []tool{{name: "rig", exe: tl.rig}}, t.TempDir(), n)
	t.Log("\n" + table(results))
	byStep := map[string]result{}
	for _, r := range results {
		if !r.ok {
			t.Errorf("%s: exit %d", r.step, r.run.exit)
		}
		byStep[r.step] = r
	}
	checks := []struct {
		step, what string
		got, want  int64
	}{
		{"apply", "objects created", byStep["apply"].stats.Calls["CreateObject"], n},
		{"apply", "ApplyResourceChange calls", byStep["apply"].stats.Providers.RPCs["ApplyResourceChange"], n},
		{"no-op plan", "objects read", byStep["no-op plan"].stats.Calls["GetObject"], n},
		{"no-op plan", "ReadResource calls", byStep["no-op plan"].stats.Providers.RPCs["ReadResource"], n},
		{"no-op plan, rig -refresh=changed (first)", "objects read", byStep["no-op plan, rig -refresh=changed (first)"].stats.Calls["GetObject"], n},
		{"no-op plan, rig -refresh=changed", "objects read", byStep["no-op plan, rig -refresh=changed"].stats.Calls["GetObject"], 0},
		{"drift (others: plan -refresh-only)", "objects read", byStep["drift (others: plan -refresh-only)"].stats.Calls["GetObject"], n},
		{"destroy", "objects deleted", byStep["destroy"].stats.Calls["DeleteObject"], n},
		{"destroy", "objects left", int64(byStep["destroy"].stats.Objects), 0},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %s %d, want %d", c.step, c.what, c.got, c.want)
		}
	}
	if got := byStep["plan after drift"].run.output; !strings.Contains(got, "~drift") {
		t.Errorf("the plan after drift shows no drifted value:\n%s", tail(got, 30))
	}
}

// BenchmarkSlowcloud runs OpenTofu (RIG_BENCH_TOFU: executables,
// colon-separated; any Terraform-compatible CLI) and rig side by side on
// slowcloud at 100 ms ± 20 ms per call and 200 calls per second, for each N
// of RIG_BENCH_SLOWCLOUD_N (default "1000,5000"; add 20000 for the largest):
// apply, no-op plan, plan after 5 % of the objects drifted, destroy. Each
// iteration is one round (-benchtime=1x). It logs a Markdown table (also
// appended to the file RIG_BENCH_OUT names, if set). RIG_BENCH_LATENCY and
// RIG_BENCH_RATE change the cloud. Without RIG_BENCH_TOFU, rig runs alone.
// RIG_BENCH_PROGRESS names a file each row is appended to as it is measured.
func BenchmarkSlowcloud(b *testing.B) {
	tl := build(b)
	tls := []tool{{name: "rig", exe: tl.rig}}
	for _, exe := range filepath.SplitList(os.Getenv("RIG_BENCH_TOFU")) {
		if exe != "" {
			tls = append([]tool{{name: filepath.Base(exe), exe: exe}}, tls...)
		}
	}
	cfg := cloudConfig{latency: 100 * time.Millisecond, jitter: 20 * time.Millisecond, rate: 200}
	if d, err := time.ParseDuration(os.Getenv("RIG_BENCH_LATENCY")); err == nil {
		cfg.latency, cfg.jitter = d, d/5
	}
	if r, err := strconv.ParseFloat(os.Getenv("RIG_BENCH_RATE"), 64); err == nil {
		cfg.rate = r
	}
	sizes := os.Getenv("RIG_BENCH_SLOWCLOUD_N")
	if sizes == "" {
		sizes = "1000,5000"
	}
	var ns []int
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			b.Fatalf("RIG_BENCH_SLOWCLOUD_N=%q: want sizes separated by commas", sizes)
		}
		ns = append(ns, n)
	}
	for b.Loop() {
		c := startCloud(b, tl, cfg)
		var all []result
		for _, n := range ns {
			all = append(all, runSteps(b, tl, c, tls, b.TempDir(), n)...)
		}
		out := "slowcloud: " + cfg.String() + "\n\n" + table(all)
		b.Log("\n" + out)
		if path := os.Getenv("RIG_BENCH_OUT"); path != "" {
			f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = f.WriteString(out + "\n")
			f.Close()
		}
		for _, r := range all {
			if r.tool == "rig" && r.step == "no-op plan" {
				b.ReportMetric(r.run.wall.Seconds(), "noop-s/N="+strconv.Itoa(r.n))
			}
		}
	}
}
