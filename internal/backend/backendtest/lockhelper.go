package backendtest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// ServeLockHelper makes a backend package's test binary a lock holder
// when the environment variable env is set: called first in TestMain, it
// then calls lock with the variable's value, prints "locked" and waits to
// be killed (exiting 2 if lock fails). Without env it returns at once.
func ServeLockHelper(env string, lock func(spec string) error) {
	spec := os.Getenv(env)
	if spec == "" {
		return
	}
	if err := lock(spec); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(2)
	}
	fmt.Println("locked")
	select {} // hold the lock until killed
}

// StartLockHelper runs the test binary as a lock holder (ServeLockHelper)
// with spec in env, waits until it holds the lock, and returns a function
// that kills it and waits for it to exit, which cleanup runs too.
func StartLockHelper(t *testing.T, env, spec string) (kill func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+spec)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	kill = func() {
		once.Do(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
	}
	t.Cleanup(kill)
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "locked\n" {
		kill()
		t.Fatalf("the lock helper did not lock: %q, %v", line, err)
	}
	return kill
}
