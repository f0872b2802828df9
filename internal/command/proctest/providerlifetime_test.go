//go:build linux

package proctest

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// TestKilledRigLeavesNoProvider kills rig with SIGKILL while a provider
// plugin applies and checks that the provider process dies with it.
func TestKilledRigLeavesNoProvider(t *testing.T) {
	bin := commandtest.BuildRig(t)
	provider := commandtest.TestProvider(t)
	dir := commandtest.WorkDir(t, map[string]string{"main.tf": `
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
	cmd.Env = devOverrides(t, provider)
	stdout, stderr := startPiped(t, cmd)
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
	if pids := commandtest.ProcessesOf(provider); len(pids) == 0 {
		t.Fatal("no provider process while the apply runs")
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_, _ = io.Copy(io.Discard, stdout)
	_ = cmd.Wait()

	// The kernel signals the provider as rig dies; give it a moment to go.
	commandtest.AwaitGone(t, 5*time.Second, "provider processes", func() []int { return commandtest.ProcessesOf(provider) })
}
