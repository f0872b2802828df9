package commandtest

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// Result is what one rig command did.
type Result struct {
	Code           int
	Stdout, Stderr string
}

// Main runs one rig command in-process: command.Main with its streams
// spelled out (commandtest does not import internal/command).
type Main func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// cwdMu serializes in-process commands: a command changes the process's
// working directory.
var cwdMu sync.Mutex

// Run runs one command in-process in dir, as `rig -chdir=dir ARGS`, with
// input as its standard input, and restores the working directory.
func Run(t testing.TB, main Main, dir, input string, args ...string) Result {
	t.Helper()
	cwdMu.Lock()
	defer cwdMu.Unlock()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
	}()
	var out, errb bytes.Buffer
	code := main(append([]string{"-chdir=" + dir}, args...), strings.NewReader(input), &out, &errb)
	return Result{Code: code, Stdout: out.String(), Stderr: errb.String()}
}

// RunBinary runs the rig binary bin in dir, as `rig -chdir=dir ARGS`, with
// env as its environment (nil: this process's), and returns what it did;
// a binary that cannot be started fails the test.
func RunBinary(t testing.TB, bin, dir string, env []string, args ...string) Result {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-chdir=" + dir}, args...)...)
	cmd.Env = env
	r, err := Exec(cmd)
	if err != nil {
		t.Fatalf("running rig %v: %v", args, err)
	}
	return r
}

// Exec runs cmd, whose Stdout and Stderr must be unset, and returns its
// exit status and output. err is a failure to run it at all; an exit
// status other than 0 is not one.
func Exec(cmd *exec.Cmd) (Result, error) {
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code, err = ee.ExitCode(), nil
	}
	return Result{Code: code, Stdout: out.String(), Stderr: errb.String()}, err
}

// EmptyCLIConfig points TF_CLI_CONFIG_FILE at a new empty file, so that
// the developer's own CLI configuration cannot change what commands do,
// and returns a function that removes it.
func EmptyCLIConfig() (remove func()) {
	f, err := os.CreateTemp("", "rig-cli-config-*.tfrc")
	if err != nil {
		return func() {}
	}
	f.Close()
	os.Setenv("TF_CLI_CONFIG_FILE", f.Name())
	return func() { os.Remove(f.Name()) }
}
