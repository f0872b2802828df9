package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// cliTool is one command-line tool a benchmark runs: rig built from this
// tree, or another executable (an OpenTofu release, an earlier rig).
type cliTool struct {
	name string
	exe  string
}

// buildRig builds rig from this tree into dir and returns the tool.
func buildRig(b *testing.B, dir string) cliTool {
	b.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	exe := filepath.Join(dir, "rig")
	cmd := exec.Command("go", "build", "-o", exe, "./cmd/rig")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building rig: %v\n%s", err, out)
	}
	return cliTool{name: "rig", exe: exe}
}

// otherTools returns the tools a colon-separated list of executables (the
// value of env) names, each named for its file (tofu-1.12.6).
func otherTools(env string) []cliTool {
	var out []cliTool
	for _, exe := range filepath.SplitList(os.Getenv(env)) {
		if exe == "" {
			continue
		}
		if _, err := os.Stat(exe); err != nil {
			continue
		}
		out = append(out, cliTool{name: filepath.Base(exe), exe: exe})
	}
	return out
}

// beforeTools returns the earlier build of rig RIG_BENCH_RIG_BEFORE names
// (none when it is unset), called "rig before".
func beforeTools() []cliTool {
	tools := otherTools("RIG_BENCH_RIG_BEFORE")
	for i := range tools {
		tools[i].name = "rig before"
	}
	return tools[:min(len(tools), 1)]
}

// cliRun is what one command cost: wall time, CPU time (its own and its
// children's, the provider processes), and its peak resident memory.
type cliRun struct {
	wall, cpu time.Duration
	maxRSSKiB int64
}

// cliEnv returns the environment the tools run in: the benchmark's own,
// without any TF_LOG or TF_CLI_ARGS setting, with an empty CLI
// configuration (or cliConfig) and without OpenTofu's version check;
// extra is added last.
func cliEnv(cliConfig string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TF_LOG") || strings.HasPrefix(kv, "TF_CLI_ARGS") || strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	return append(env, extra...)
}

// run runs t in dir with args and returns what it cost; a failure ends
// the benchmark with the command's output.
func (t cliTool) run(b *testing.B, dir string, env []string, args ...string) cliRun {
	b.Helper()
	cmd := exec.Command(t.exe, args...)
	cmd.Dir, cmd.Env = dir, env
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = io.Discard, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("%s %s in %s: %v\n%s", t.name, strings.Join(args, " "), dir, err, out.String())
	}
	r := cliRun{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	r.maxRSSKiB = maxRSSKiB(cmd.ProcessState)
	return r
}

// writeFiles writes files (name to content) into dir.
func writeFiles(b *testing.B, dir string, files map[string]string) {
	b.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// rpcCounts counts, in a provider log written with the SDK's protocol
// logging on (protoLogEnv), the calls each provider received by RPC, and
// the provider processes started.
type rpcCounts struct {
	calls     map[string]map[string]int // provider type → RPC → calls
	processes map[string]int            // provider type → processes started
}

var (
	receivedRE = regexp.MustCompile(`Received request: .*`)
	rpcRE      = regexp.MustCompile(`\btf_rpc=(\w+)`)
	addrRE     = regexp.MustCompile(`\btf_provider_addr=\S+/(\S+)`)
	startedRE  = regexp.MustCompile(`plugin started: path=\S*terraform-provider-([a-z0-9-]+)_`)
)

// protoLogEnv returns the variables that make every provider SDK log each
// call it receives (and nothing else) into path, for countRPCs, with the
// provider types whose own logs to keep quiet.
func protoLogEnv(path string, types ...string) []string {
	env := []string{"TF_LOG_PROVIDER=trace", "TF_LOG_PATH=" + path, "TF_LOG_SDK=off", "TF_LOG_SDK_PROTO=trace",
		"TF_LOG_SDK_FRAMEWORK=off", "TF_LOG_SDK_HELPER_SCHEMA=off", "TF_LOG_SDK_MUX=off"}
	for _, t := range types {
		env = append(env, "TF_LOG_PROVIDER_"+strings.ToUpper(strings.ReplaceAll(t, "-", "_"))+"=off")
	}
	return env
}

// countRPCs reads a log protoLogEnv had written.
func countRPCs(path string) (rpcCounts, error) {
	c := rpcCounts{calls: map[string]map[string]int{}, processes: map[string]int{}}
	f, err := os.Open(path)
	if err != nil {
		return c, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := startedRE.FindStringSubmatch(line); m != nil {
			c.processes[m[1]]++
			continue
		}
		if !receivedRE.MatchString(line) {
			continue
		}
		rpc, addr := rpcRE.FindStringSubmatch(line), addrRE.FindStringSubmatch(line)
		if rpc == nil || addr == nil {
			continue
		}
		if c.calls[addr[1]] == nil {
			c.calls[addr[1]] = map[string]int{}
		}
		c.calls[addr[1]][rpc[1]]++
	}
	return c, sc.Err()
}

// totals returns the calls of every provider by RPC.
func (c rpcCounts) totals() map[string]int {
	out := map[string]int{}
	for _, byRPC := range c.calls {
		for rpc, n := range byRPC {
			out[rpc] += n
		}
	}
	return out
}

// perObjectRPCs are the calls made per object, in the order tables show
// them, with their short names.
var perObjectRPCs = []struct{ rpc, short string }{
	{"ValidateResourceConfig", "validate"}, {"UpgradeResourceState", "upgrade"}, {"ReadResource", "read"},
	{"PlanResourceChange", "plan"}, {"ApplyResourceChange", "apply"}, {"ReadDataSource", "read data"},
}

// rpcName returns the protocol 6 name of a protocol 5 RPC.
func rpcName(rpc string) string {
	switch rpc {
	case "ValidateResourceTypeConfig":
		return "ValidateResourceConfig"
	case "ValidateDataSourceConfig":
		return "ValidateDataResourceConfig"
	case "PrepareProviderConfig":
		return "ValidateProviderConfig"
	case "Configure":
		return "ConfigureProvider"
	}
	return rpc
}

// callsString formats totals (calls by RPC): "1000 upgrade, 1000 read,
// 1000 plan, 9 other", the calls not made per object (schemas,
// configuration) summed as other.
func callsString(totals map[string]int) string {
	byName := map[string]int{}
	for rpc, n := range totals {
		byName[rpcName(rpc)] += n
	}
	var parts []string
	for _, r := range perObjectRPCs {
		if n := byName[r.rpc]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, r.short))
		}
		delete(byName, r.rpc)
	}
	other := 0
	for _, n := range byName {
		other += n
	}
	if other > 0 {
		parts = append(parts, fmt.Sprintf("%d other", other))
	}
	return strings.Join(parts, ", ")
}

// seconds formats d in seconds with two decimals.
func seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

// median returns the median of ds (the lower middle one of an even count).
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}
