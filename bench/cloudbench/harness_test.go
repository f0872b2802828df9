package cloudbench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// tools are the executables a run needs: rig built from this tree, the
// cloud, and the directory laid out as a provider mirror.
type tools struct {
	rig, cloud, mirror string
}

var (
	buildOnce sync.Once
	built     tools
	buildErr  error
)

// build builds rig and slowcloud once per test binary, into a directory
// that outlives the test that asked first.
func build(tb testing.TB) tools {
	tb.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "rig-cloudbench-")
		if err != nil {
			buildErr = err
			return
		}
		root, err := filepath.Abs(filepath.Join("..", ".."))
		if err != nil {
			buildErr = err
			return
		}
		rig := filepath.Join(dir, "rig")
		cmd := exec.Command("go", "build", "-o", rig, "./cmd/rig")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("building rig: %v\n%s", err, out)
			return
		}
		mirror := filepath.Join(dir, "mirror")
		cmd = exec.Command("bash", filepath.Join(root, "bench", "slowcloud", "mirror"), mirror)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("building slowcloud: %v\n%s", err, out)
			return
		}
		built = tools{rig: rig, cloud: filepath.Join(mirror, "bin", "slowcloud"), mirror: mirror}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return built
}

// cloudConfig is how a cloud started by startCloud behaves.
type cloudConfig struct {
	latency, jitter time.Duration
	rate            float64 // calls per second; 0 for no limit
}

func (c cloudConfig) String() string {
	s := fmt.Sprintf("%v ± %v per call", c.latency, c.jitter)
	if c.rate > 0 {
		s += fmt.Sprintf(", %g calls/s", c.rate)
	}
	return s
}

// cloud is a running slowcloud.
type cloud struct {
	endpoint string
	cmd      *exec.Cmd
}

// startCloud starts slowcloud; it is stopped when the test ends.
func startCloud(tb testing.TB, t tools, cfg cloudConfig) *cloud {
	tb.Helper()
	cmd := exec.Command(t.cloud, "serve", "-latency", cfg.latency.String(), "-jitter", cfg.jitter.String(),
		"-rate", fmt.Sprint(cfg.rate))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	endpoint, ok := strings.CutPrefix(strings.TrimSpace(line), "SLOWCLOUD_ENDPOINT=")
	if err != nil || !ok {
		tb.Fatalf("slowcloud did not say where it listens: %q, %v", line, err)
	}
	return &cloud{endpoint: endpoint, cmd: cmd}
}

// stats are the cloud's counters (see package cloud's Stats).
type stats struct {
	Calls       map[string]int64 `json:"calls"`
	Throttled   map[string]int64 `json:"throttled"`
	MaxInFlight int64            `json:"max_in_flight"`
	Objects     int              `json:"objects"`
	Providers   struct {
		Processes int64            `json:"processes"`
		RPCs      map[string]int64 `json:"rpcs"`
		Retries   int64            `json:"retries"`
		Failures  map[string]int64 `json:"throttling_failures"`
	} `json:"providers"`
}

func (c *cloud) post(tb testing.TB, path string, body any) []byte {
	tb.Helper()
	data, _ := json.Marshal(body)
	resp, err := http.Post(c.endpoint+path, "application/json", bytes.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		tb.Fatalf("POST %s: %s: %s", path, resp.Status, out)
	}
	return out
}

// resetStats sets the cloud's counters to zero.
func (c *cloud) resetStats(tb testing.TB) { c.post(tb, "/v1/stats/reset", nil) }

// stats returns the cloud's counters.
func (c *cloud) stats(tb testing.TB) stats {
	tb.Helper()
	resp, err := http.Get(c.endpoint + "/v1/stats")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var s stats
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		tb.Fatal(err)
	}
	return s
}

// drift changes a fraction of the cloud's objects (seeded).
func (c *cloud) drift(tb testing.TB, fraction float64, seed int) {
	c.post(tb, "/v1/drift", map[string]any{"changed": fraction, "seed": seed})
}

// configuration returns a configuration of n objects in ten count
// resources (n/10 each, named after prefix), as users write them.
func configuration(prefix string, n int) string {
	var b strings.Builder
	b.WriteString("terraform {\n  required_providers {\n    slowcloud = { source = \"rig-iac/slowcloud\" }\n  }\n}\n")
	per := max(1, n/10)
	for i := 0; i*per < n; i++ {
		fmt.Fprintf(&b, "\nresource \"slowcloud_object\" \"r%d\" {\n  count = %d\n  name  = \"%s-r%d-${count.index}\"\n  value = \"v${count.index}\"\n}\n",
			i, min(per, n-i*per), prefix, i)
	}
	return b.String()
}

// workdir writes a working directory for a tool: the configuration and a
// CLI configuration that installs providers from the mirror only.
func workdir(tb testing.TB, t tools, dir, config string) string {
	tb.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	cli := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", t.mirror)
	for name, content := range map[string]string{"main.tf": config, "cli.tfrc": cli} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// run is what one command cost.
type run struct {
	exit      int
	wall      time.Duration
	maxRSSKiB int64
	output    string
}

// command runs exe with args in dir against cloud c, with the environment
// of a user who set nothing but the CLI configuration and the endpoint.
func command(tb testing.TB, c *cloud, dir, exe string, args ...string) run {
	tb.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_") && !strings.HasPrefix(kv, "SLOWCLOUD_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "TF_CLI_CONFIG_FILE="+filepath.Join(dir, "cli.tfrc"), "CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1", "SLOWCLOUD_ENDPOINT="+c.endpoint)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	r := run{wall: time.Since(start), output: out.String()}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			tb.Fatalf("%s %s: %v", exe, strings.Join(args, " "), err)
		}
		r.exit = ee.ExitCode()
	}
	r.maxRSSKiB = maxRSSKiB(cmd.ProcessState)
	return r
}
