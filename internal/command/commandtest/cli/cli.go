package cli

import (
	"io"
	"testing"

	"github.com/rig-iac/rig/internal/command"
	"github.com/rig-iac/rig/internal/command/commandtest"
	"github.com/rig-iac/rig/internal/provider/plugin"
)

// Main runs the tests m of a package that drives rig, with an empty CLI
// configuration and none of the environment variables that change rig's
// output (commandtest.UnsetRigEnv), and then ends the provider plugin
// processes and removes the harness's files; it returns the exit status: a
// TestMain calls os.Exit(cli.Main(m)).
func Main(m *testing.M) int {
	commandtest.UnsetRigEnv()
	removeConfig := commandtest.EmptyCLIConfig()
	code := m.Run()
	plugin.CleanupClients()
	commandtest.Cleanup()
	removeConfig()
	return code
}

// runMain is command.Main with its streams spelled out, as commandtest
// runs it.
func runMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return command.Main(args, command.Streams{In: stdin, Out: stdout, Err: stderr})
}

// Run runs one rig command in-process in dir, as `rig -chdir=dir ARGS`,
// with no standard input.
func Run(t testing.TB, dir string, args ...string) commandtest.Result {
	t.Helper()
	return commandtest.Run(t, runMain, dir, "", args...)
}

// MustRun runs a command that must succeed (else the test fails) and
// returns what it did.
func MustRun(t testing.TB, dir string, args ...string) commandtest.Result {
	t.Helper()
	r := Run(t, dir, args...)
	if r.Code != 0 {
		t.Fatalf("rig %v: exit %d\n%s%s", args, r.Code, r.Stdout, r.Stderr)
	}
	return r
}
