//go:build linux

package command

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKilledRigLeavesNoProvider kills rig with SIGKILL while a provider
// plugin applies and checks that the provider process dies with it.
func TestKilledRigLeavesNoProvider(t *testing.T) {
	bin := buildRig(t)
	pluginDir := t.TempDir()
	provider := filepath.Join(pluginDir, "terraform-provider-test")
	if out, err := exec.Command("go", "build", "-o", provider, "../provider/plugin/testdata/testprovider").CombinedOutput(); err != nil {
		t.Fatalf("building the test provider: %v\n%s", err, out)
	}
	cliConfig := filepath.Join(t.TempDir(), "rig.tfrc")
	writeFile(t, filepath.Dir(cliConfig), filepath.Base(cliConfig), `
provider_installation {
  dev_overrides {
    "rig/test" = "`+pluginDir+`"
  }
}
`)
	dir := workdir(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
# The test provider takes ten seconds to create a thing named "slow".
resource "test_thing" "slow" {
  name = "slow"
}
`})
	cmd := exec.Command(bin, "-chdir="+dir, "apply", "-auto-approve", "-input=false", "-no-color")
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	creating := false
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "test_thing.slow: Creating...") {
			creating = true
			break
		}
	}
	if !creating {
		_ = cmd.Wait()
		t.Fatalf("the apply never started creating test_thing.slow:\n%s", stderr.String())
	}
	if pids := processesOf(provider); len(pids) == 0 {
		t.Fatal("no provider process while the apply runs")
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_, _ = io.Copy(io.Discard, stdout)
	_ = cmd.Wait()

	// The kernel signals the provider as rig dies; give it a moment to go.
	awaitGone(t, 5*time.Second, "provider processes", func() []int { return processesOf(provider) })
}

// awaitGone waits up to limit for live (the processes still there) to
// return none; past it, it kills them and fails naming them as what.
func awaitGone(t *testing.T, limit time.Duration, what string, live func() []int) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		pids := live()
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Fatalf("%s %v outlived the killed rig", what, pids)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processesOf returns the live processes running the executable at path.
func processesOf(path string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil || exe != path {
			continue
		}
		// A zombie has its exe link still; it is dead all the same.
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		pids = append(pids, pid)
	}
	return pids
}
