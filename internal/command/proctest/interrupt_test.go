//go:build unix

package proctest

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/command/commandtest"
	"github.com/rig-iac/rig/internal/command/commandtest/cli"
)

// TestInterruptedApplySavesState sends SIGINT to a running apply: it starts
// nothing new, lets running operations finish, saves everything it
// reported complete into the state file, and a later apply converges.
func TestInterruptedApplySavesState(t *testing.T) {
	bin := commandtest.BuildRig(t)
	dir := commandtest.WorkDir(t, map[string]string{"main.tf": `
resource "terraform_data" "r" {
  count = 4000
  input = "value-${count.index}"
}
`})
	cmd := exec.Command(bin, "-chdir="+dir, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=4")
	stdout, stderr := startPiped(t, cmd)
	complete := regexp.MustCompile(`^(terraform_data\.r\[\d+\]): Creation complete`)
	done := map[string]bool{}
	sc := bufio.NewScanner(stdout)
	var out strings.Builder
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if m := complete.FindStringSubmatch(sc.Text()); m != nil {
			done[m[1]] = true
			if len(done) == 300 {
				_ = cmd.Process.Signal(syscall.SIGINT)
			}
		}
	}
	_, _ = io.Copy(io.Discard, stdout)
	err := cmd.Wait()
	if len(done) < 300 {
		t.Fatalf("the apply finished before it could be interrupted (%d operations)", len(done))
	}
	wantInterruptedExit(t, "apply", err, stderr.String())
	if !strings.Contains(stderr.String(), "Interrupt received") || !strings.Contains(stderr.String(), "interrupted") {
		t.Fatalf("stderr does not report the interrupt:\n%s", stderr.String())
	}
	if len(done) == 4000 {
		t.Fatal("the interrupt did not stop the apply")
	}
	// The report says what was applied and what the interrupt left to do.
	report := regexp.MustCompile(`Apply report: interrupted\. (\d+) applied, 0 failed, (\d+) not started\.`).FindStringSubmatch(out.String())
	if report == nil || !strings.Contains(out.String(), "(the apply was interrupted before it started)") || !strings.Contains(out.String(), "rig show -last-apply -json lists them all") {
		t.Fatalf("no report of the interrupted apply:\n%s", out.String())
	}
	applied, _ := strconv.Atoi(report[1])
	notStarted, _ := strconv.Atoi(report[2])
	if applied < len(done) || applied+notStarted != 4000 {
		t.Errorf("the report counts %d applied and %d not started; %d were reported complete, of 4000", applied, notStarted, len(done))
	}
	sf, _ := commandtest.ReadStateFile(t, dir)
	recorded := map[string]bool{}
	for _, r := range sf.Resources {
		for _, inst := range r.Instances {
			if k, ok := inst.IndexKey.(float64); ok {
				recorded["terraform_data.r["+strconv.Itoa(int(k))+"]"] = true
			}
		}
	}
	for addr := range done {
		if !recorded[addr] {
			t.Fatalf("%s was reported complete but is not in the state", addr)
		}
	}
	if got := commandtest.InstanceCount(sf); got < len(done) {
		t.Fatalf("state has %d instances, but %d were reported complete", got, len(done))
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.journal")); !os.IsNotExist(err) {
		t.Fatalf("journal left after a graceful stop: %v", err)
	}
	if r := cli.Run(t, dir, "apply", "-auto-approve", "-no-color", "-input=false"); r.Code != 0 {
		t.Fatalf("apply after interrupt: %s", r.Stderr)
	}
	if r := cli.Run(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.Code != 0 {
		t.Fatalf("plan did not converge: exit %d", r.Code)
	}
}

// TestInterruptBeforeChangesStops interrupts an apply while it waits for
// its confirmation, a phase that does not notice the cancellation and has
// changed nothing: rig stops at once (within its grace of two seconds),
// releases the lock and leaves the state as it was.
func TestInterruptBeforeChangesStops(t *testing.T) {
	bin := commandtest.BuildRig(t)
	dir := commandtest.WorkDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}` + "\n"})
	cmd := exec.Command(bin, "-chdir="+dir, "apply", "-no-color")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, stderr := startPiped(t, cmd)
	sc := bufio.NewScanner(stdout)
	sc.Split(bufio.ScanWords)
	asked := false
	for sc.Scan() {
		if sc.Text() == "value:" { // "Enter a value:"
			asked = true
			break
		}
	}
	if !asked {
		_ = cmd.Wait()
		t.Fatalf("the apply never asked for confirmation:\n%s", stderr.String())
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Errorf("exit: %v, want status 1", err)
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("rig did not stop after the interrupt")
	}
	if !strings.Contains(stderr.String(), "Stopped: the command was interrupted before it changed anything.") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform.tfstate.lock.info")); !os.IsNotExist(err) {
		t.Errorf("the lock is still held after the interrupt (%v)", err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate")); err == nil && len(data) > 0 {
		t.Errorf("the interrupted apply wrote a state:\n%s", data)
	}
	if r := cli.Run(t, dir, "plan", "-no-color"); r.Code != 0 {
		t.Errorf("plan after the interrupt: exit %d\n%s", r.Code, r.Stderr)
	}
}
