//go:build unix

package proctest

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// TestInterruptAfterLastOperationStarted sends SIGINT to an apply once
// every one of its operations has started, slowly: they all finish and
// are recorded in the state, but the apply still ends as interrupted —
// status 1, the interruption as an error and the apply report saying so —
// as OpenTofu ends an apply it was asked to stop, in the human output and
// in the -json stream.
func TestInterruptAfterLastOperationStarted(t *testing.T) {
	bin := commandtest.BuildRig(t)
	exe := commandtest.TestProvider(t)
	env := append(devOverrides(t, exe), "RIG_TESTPROVIDER_CALL_DELAY=1500ms")
	for _, tc := range []struct {
		name string
		json bool
	}{{"human", false}, {"json", true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := commandtest.WorkDir(t, map[string]string{"main.tf": `terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
resource "test_thing" "a" {
  name = "a"
}
resource "test_thing" "b" {
  name = "b"
  tags = { a = test_thing.a.id }
}
`})
			args := []string{"-chdir=" + dir, "apply", "-auto-approve", "-no-color", "-input=false"}
			started := "test_thing.b: Creating..."
			if tc.json {
				args = append(args, "-json")
				started = `"type":"apply_start"`
			}
			cmd := exec.Command(bin, args...)
			cmd.Env = env
			stdout, stderr := startPiped(t, cmd)
			var out strings.Builder
			sc := bufio.NewScanner(stdout)
			signalled := false
			for sc.Scan() {
				out.WriteString(sc.Text() + "\n")
				// b, which waits for a, is the last operation to start.
				if !signalled && strings.Contains(sc.Text(), started) && (!tc.json || strings.Contains(sc.Text(), "test_thing.b")) {
					_ = cmd.Process.Signal(syscall.SIGINT)
					signalled = true
				}
			}
			_, _ = io.Copy(io.Discard, stdout)
			err := cmd.Wait()
			if !signalled {
				t.Fatalf("the last operation never started:\n%s%s", out.String(), stderr.String())
			}
			wantInterruptedExit(t, "apply", err, out.String()+stderr.String())
			if tc.json {
				if announced, interrupted := jsonReportsInterrupt(t, out.String(), "Operation interrupted"); !announced || !interrupted {
					t.Errorf("the -json stream does not announce the interrupt (%v) or report it as an error (%v):\n%s", announced, interrupted, out.String())
				}
			} else {
				if !strings.Contains(stderr.String(), "Interrupt received.") || !strings.Contains(stderr.String(), "Error: Operation interrupted") {
					t.Errorf("the interrupt is not announced, or no error reports it:\n%s", stderr.String())
				}
				if !strings.Contains(out.String(), "Apply report: interrupted. 2 applied, 0 failed, 0 not started.") {
					t.Errorf("the apply report does not say the apply was interrupted:\n%s", out.String())
				}
				if strings.Contains(out.String(), "Apply complete!") {
					t.Errorf("the interrupted apply reports itself complete:\n%s", out.String())
				}
			}
			// Both operations finished: the state records both objects.
			sf, _ := commandtest.ReadStateFile(t, dir)
			if got := commandtest.InstanceCount(sf); got != 2 {
				t.Fatalf("state has %d objects, want the 2 the apply created", got)
			}
			// The record of the last apply says so too.
			show := exec.Command(bin, "-chdir="+dir, "show", "-last-apply", "-json")
			show.Env = env
			if b, err := show.Output(); err != nil || !strings.Contains(string(b), `"outcome":"interrupted"`) {
				t.Errorf("rig show -last-apply -json: %v\n%s", err, b)
			}
			plan := exec.Command(bin, "-chdir="+dir, "plan", "-detailed-exitcode", "-no-color", "-input=false")
			plan.Env = env
			if b, err := plan.CombinedOutput(); err != nil {
				t.Fatalf("plan after the interrupted apply does not converge: %v\n%s", err, b)
			}
		})
	}
}
