package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// realResources are the resources of the real-provider benchmark, one
// count-expanded block per provider plugin of the local mirror: its
// block's body in the configuration (cli), and the body of instance i
// with files in dir for the floor measurement.
var realResources = []struct {
	floorResource
	cli string
}{
	{floorResource{"hashicorp/random", "random_pet", func(string, int) string { return "" }}, ""},
	{floorResource{"hashicorp/local", "local_file", func(dir string, i int) string {
		return fmt.Sprintf("filename = %q\ncontent = %q\n", filepath.Join(dir, strconv.Itoa(i)+".txt"), fmt.Sprintf("file %d\n", i))
	}}, "filename = \"${path.module}/files/${count.index}.txt\"\n  content  = \"file ${count.index}\\n\""},
	{floorResource{"hashicorp/tls", "tls_private_key", func(string, int) string { return `algorithm = "ED25519"` }}, `algorithm = "ED25519"`},
	{floorResource{"hashicorp/time", "time_static", func(string, int) string { return "" }}, ""},
}

// realConfig is the configuration of the real-provider benchmark: n
// instances of each of realResources. Provider sources name their
// registry, so that OpenTofu finds them in the same mirror.
func realConfig(n int) string {
	var b strings.Builder
	b.WriteString("terraform {\n  required_providers {\n")
	for _, r := range realResources {
		fmt.Fprintf(&b, "    %s = { source = \"registry.terraform.io/%s\" }\n", filepath.Base(r.provider), r.provider)
	}
	b.WriteString("  }\n}\n")
	for _, r := range realResources {
		fmt.Fprintf(&b, "\nresource %q \"r\" {\n  count = %d\n", r.typeName, n)
		if r.cli != "" {
			fmt.Fprintf(&b, "  %s\n", r.cli)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// realPhases are the commands the benchmark times, in the order it runs
// them (floorPhases has the calls each makes for an object).
var realPhases = []struct {
	name string
	args []string
}{
	{"apply", []string{"apply", "-auto-approve", "-input=false", "-no-color"}},
	{"plan", []string{"plan", "-input=false", "-no-color"}},
	{"plan -refresh=false", []string{"plan", "-refresh=false", "-input=false", "-no-color"}},
	{"destroy", []string{"destroy", "-auto-approve", "-input=false", "-no-color"}},
}

// realMirror returns the local mirror of real provider plugins
// (RIG_TEST_PROVIDER_MIRROR, else its default place), or skips.
func realMirror(b *testing.B) string {
	b.Helper()
	mirror := os.Getenv("RIG_TEST_PROVIDER_MIRROR")
	if mirror == "" {
		cache, _ := os.UserCacheDir()
		mirror = filepath.Join(cache, "rig-providers", "mirror")
	}
	for _, r := range realResources {
		if pluginExe(mirror, r.provider) == "" {
			b.Skipf("no %s in the provider mirror %s (run .ci/providers)", r.provider, mirror)
		}
	}
	return mirror
}

// pluginExe returns the executable of provider ns/type in mirror, or "".
func pluginExe(mirror, prov string) string {
	m, _ := filepath.Glob(filepath.Join(mirror, "registry.terraform.io", prov, "*", "*", "terraform-provider-"+filepath.Base(prov)+"*"))
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1]
}

// envInt returns the integer value of env, or def.
func envInt(env string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(env)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkRealProviders runs rig and OpenTofu side by side on the real
// provider plugins of the local mirror (random, local, tls, time): a
// configuration of RIG_BENCH_N (1,000) instances of one resource of each,
// applied, planned with and without refresh, and destroyed, each tool in
// turn for each phase, one round per iteration (-benchtime=3x for three).
// The OpenTofu executables are RIG_BENCH_TOFU (a colon-separated list);
// without any it skips. An earlier build of rig, RIG_BENCH_RIG_BEFORE,
// runs too when set. Each round also measures the providers' floor for
// each phase (providerFloor: the calls rig makes, straight through rig's
// plugin client, -parallelism at a time). Before the rounds it counts the
// calls each tool makes in each phase, from the SDKs' protocol logs. It
// logs a table of the median times (also written to the file RIG_BENCH_OUT
// names, if set) and reports each as a metric.
func BenchmarkRealProviders(b *testing.B) {
	tofus := otherTools("RIG_BENCH_TOFU")
	if len(tofus) == 0 {
		b.Skip("set RIG_BENCH_TOFU to OpenTofu executables to compare with (colon-separated)")
	}
	mirror := realMirror(b)
	n := envInt("RIG_BENCH_N", 1000)
	const parallelism = 10
	ctx := context.Background()
	work := b.TempDir()
	tools := append([]cliTool{buildRig(b, filepath.Join(work, "bin"))}, beforeTools()...)
	tools = append(tools, tofus...)
	cliConfig := filepath.Join(work, "empty.tfrc")
	writeFiles(b, work, map[string]string{"empty.tfrc": ""})
	env := cliEnv(cliConfig)
	var types []string
	var floorRes []floorResource
	var exes []string
	for _, r := range realResources {
		types = append(types, filepath.Base(r.provider))
		floorRes = append(floorRes, r.floorResource)
		exes = append(exes, pluginExe(mirror, r.provider))
	}
	dirs := map[string]string{}
	for _, t := range tools {
		dir := filepath.Join(work, t.name)
		writeFiles(b, dir, map[string]string{"main.tf": realConfig(n)})
		t.run(b, dir, env, "init", "-plugin-dir="+mirror, "-input=false", "-no-color")
		dirs[t.name] = dir
	}

	// The calls of each tool in each phase, in one untimed round.
	calls := map[string][]rpcCounts{} // tool → by phase
	for _, t := range tools {
		for i, ph := range realPhases {
			log := filepath.Join(work, fmt.Sprintf("%s-%d.log", t.name, i))
			t.run(b, dirs[t.name], cliEnv(cliConfig, protoLogEnv(log, types...)...), ph.args...)
			c, err := countRPCs(log)
			if err != nil {
				b.Fatal(err)
			}
			calls[t.name] = append(calls[t.name], c)
			os.Remove(log)
		}
	}

	const floorName = "provider floor"
	times := map[string][][]cliRun{} // tool (or the floor) → phase → rounds
	record := func(name string, phase int, r cliRun) {
		if times[name] == nil {
			times[name] = make([][]cliRun, len(realPhases))
		}
		times[name][phase] = append(times[name][phase], r)
	}
	round := 0
	for b.Loop() {
		floorDir := filepath.Join(work, fmt.Sprintf("floor-%d", round))
		floor, err := newProviderFloor(ctx, floorRes, exes, floorDir, n, parallelism)
		if err != nil {
			b.Fatal(err)
		}
		for i, ph := range realPhases {
			// Each tool in turn, starting with another one each round.
			for j := range tools {
				t := tools[(j+round)%len(tools)]
				record(t.name, i, t.run(b, dirs[t.name], env, ph.args...))
			}
			r, err := floor.measure(ctx, ph.name)
			if err != nil {
				b.Fatalf("provider floor, %s: %v", ph.name, err)
			}
			record(floorName, i, r)
		}
		round++
	}
	b.StopTimer()

	var table strings.Builder
	fmt.Fprintf(&table, "\n%d instances each of %d resources, -parallelism=%d, %d round(s), medians; CPU time includes the provider processes\n\n", n, len(realResources), parallelism, round)
	table.WriteString("| phase |")
	for _, t := range tools {
		fmt.Fprintf(&table, " %s |", t.name)
	}
	for _, t := range tofus {
		fmt.Fprintf(&table, " rig / %s |", t.name)
	}
	table.WriteString(" " + floorName + " | rig / floor |\n|---|")
	table.WriteString(strings.Repeat("---:|", len(tools)+len(tofus)+2) + "\n")
	for i, ph := range realPhases {
		fmt.Fprintf(&table, "| %s |", ph.name)
		med, cpu := map[string]time.Duration{}, map[string]time.Duration{}
		for _, name := range append(toolNames(tools), floorName) {
			var walls, cpus []time.Duration
			for _, r := range times[name][i] {
				walls, cpus = append(walls, r.wall), append(cpus, r.cpu)
			}
			med[name], cpu[name] = median(walls), median(cpus)
			b.ReportMetric(med[name].Seconds(), metricName(name, ph.name))
			if name != floorName {
				fmt.Fprintf(&table, " %s (CPU %s) |", seconds(med[name]), seconds(cpu[name]))
			}
		}
		for _, t := range tofus {
			fmt.Fprintf(&table, " %.2f |", med["rig"].Seconds()/med[t.name].Seconds())
		}
		fmt.Fprintf(&table, " %s (CPU %s) | %.2f (CPU %.2f) |\n", seconds(med[floorName]), seconds(cpu[floorName]),
			med["rig"].Seconds()/med[floorName].Seconds(), cpu["rig"].Seconds()/cpu[floorName].Seconds())
	}
	table.WriteString("\nCalls of the providers per phase\n\n| phase | tool | calls |\n|---|---|---|\n")
	for i, ph := range realPhases {
		for _, t := range tools {
			fmt.Fprintf(&table, "| %s | %s | %s |\n", ph.name, t.name, callsString(calls[t.name][i].totals()))
		}
	}
	b.Log(table.String())
	if out := os.Getenv("RIG_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(table.String()), 0o644); err != nil {
			b.Error(err)
		}
	}
}

func toolNames(tools []cliTool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.name)
	}
	return out
}

// metricName is the name of a benchmark metric: "rig-plan-refresh=false-s".
func metricName(tool, phase string) string {
	return strings.ReplaceAll(tool+"-"+phase, " ", "") + "-s"
}
