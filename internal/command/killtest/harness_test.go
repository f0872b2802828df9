package killtest

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/command"
	"github.com/rig-iac/rig/internal/command/commandtest"
	"github.com/rig-iac/rig/internal/provider/plugin"
)

// The names of internal/command's test harness, over commandtest, so that
// tests read the same in both packages.

func TestMain(m *testing.M) {
	removeConfig := commandtest.EmptyCLIConfig()
	code := m.Run()
	plugin.CleanupClients()
	commandtest.Cleanup()
	removeConfig()
	os.Exit(code)
}

// result is what one rig command did.
type result struct {
	code           int
	stdout, stderr string
}

// runMain runs a command in-process.
func runMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return command.Main(args, command.Streams{In: stdin, Out: stdout, Err: stderr})
}

// rig runs one command in-process in dir, as `rig -chdir=dir ARGS`, with no stdin.
func rig(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r := commandtest.Run(t, runMain, dir, "", args...)
	return result{code: r.Code, stdout: r.Stdout, stderr: r.Stderr}
}

// mustRig runs a command that must succeed and returns its result.
func mustRig(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r := rig(t, dir, args...)
	if r.code != 0 {
		t.Fatalf("rig %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

func buildRig(t *testing.T) string { t.Helper(); return commandtest.BuildRig(t) }

func workdir(t *testing.T, files map[string]string) string {
	t.Helper()
	return commandtest.WorkDir(t, files)
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	commandtest.WriteFile(t, dir, name, content)
}

type stateFile = commandtest.StateFile

// containsText reports whether s contains want, ignoring how either is
// wrapped into lines.
func containsText(s, want string) bool {
	return strings.Contains(strings.Join(strings.Fields(s), " "), strings.Join(strings.Fields(want), " "))
}
