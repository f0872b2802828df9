//go:build unix

package proctest

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// devOverrides returns the environment of a rig that takes the rig/test
// provider from the directory of exe (commandtest.TestProvider), through
// the dev_overrides of a CLI configuration of its own.
func devOverrides(t *testing.T, exe string) []string {
	t.Helper()
	cliConfig := filepath.Join(t.TempDir(), "rig.tfrc")
	commandtest.WriteFile(t, filepath.Dir(cliConfig), filepath.Base(cliConfig), `
provider_installation {
  dev_overrides {
    "rig/test" = "`+filepath.Dir(exe)+`"
  }
}
`)
	return append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig)
}

// startPiped starts cmd with its standard output to be read from the pipe
// it returns and its standard error kept in the builder it returns.
func startPiped(t *testing.T, cmd *exec.Cmd) (io.ReadCloser, *strings.Builder) {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := new(strings.Builder)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return stdout, stderr
}

// startKept starts cmd with its standard output and error kept in the
// builders it returns, to be read once cmd.Wait has returned.
func startKept(t *testing.T, cmd *exec.Cmd) (stdout, stderr *strings.Builder) {
	t.Helper()
	stdout, stderr = new(strings.Builder), new(strings.Builder)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return stdout, stderr
}

// interruptOnceLogged sends SIGINT to cmd as soon as the file at path
// holds what ready looks for. If a minute passes first, it kills cmd and
// fails the test, saying what never happened and what the file held.
func interruptOnceLogged(t *testing.T, cmd *exec.Cmd, path string, ready func(log []byte) bool, never string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(path)
		if ready(b) {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("%s:\n%s", never, b)
		}
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
}

// wantInterruptedExit fails the test unless err, what cmd.Wait returned
// for the interrupted command what, is an exit with status 1, showing
// output.
func wantInterruptedExit(t *testing.T, what string, err error, output string) {
	t.Helper()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("interrupted %s: %v, want exit status 1\n%s", what, err, output)
	}
}

// jsonReportsInterrupt reports whether the -json stream announces the
// interrupt in a log message and has the interruption as an error
// diagnostic whose summary is summary ("Operation cancelled" for a plan,
// "Operation interrupted" for an apply).
func jsonReportsInterrupt(t *testing.T, stream, summary string) (announced, reported bool) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		var msg struct {
			Type       string `json:"type"`
			Message    string `json:"@message"`
			Diagnostic struct {
				Severity, Summary string
			} `json:"diagnostic"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		announced = announced || msg.Type == "log" && strings.HasPrefix(msg.Message, "Interrupt received.")
		reported = reported || msg.Type == "diagnostic" && msg.Diagnostic.Severity == "error" && msg.Diagnostic.Summary == summary
	}
	return announced, reported
}
