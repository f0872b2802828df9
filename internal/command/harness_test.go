package command

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
	goldenfile "github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/rig-iac/rig/internal/provider/plugin"
)

// update is the -update flag, declared by package golden: the tests
// rewrite their golden files and txtar want sections.
var update = goldenfile.Update

var idCounter atomic.Int64

func TestMain(m *testing.M) {
	// The variables that change what every command prints or where it
	// keeps its files: tests set them themselves.
	for _, name := range []string{"TF_LOG", "TF_LOG_CORE", "TF_LOG_PROVIDER", "TF_LOG_PATH", "TF_DATA_DIR",
		"TF_IN_AUTOMATION", "TF_INPUT", "TF_WORKSPACE", "TF_ENCRYPTION"} {
		os.Unsetenv(name)
	}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "TF_CLI_ARGS") {
			os.Unsetenv(name)
		}
	}
	// An empty CLI configuration: the developer's own (or a
	// TF_CLI_CONFIG_FILE naming a missing file) must not change the output.
	if f, err := os.CreateTemp("", "rig-cli-config-*.tfrc"); err == nil {
		f.Close()
		os.Setenv("TF_CLI_CONFIG_FILE", f.Name())
	}
	// Predictable ids: id-1, id-2, … in creation order.
	newBuiltinTerraform = func(read builtin.RemoteStateReader) provider.Interface {
		return &builtin.Terraform{
			NewID:           func() string { return fmt.Sprintf("id-%d", idCounter.Add(1)) },
			ReadRemoteState: read,
		}
	}
	code := m.Run()
	plugin.CleanupClients()
	commandtest.Cleanup()
	os.Remove(os.Getenv("TF_CLI_CONFIG_FILE"))
	os.Exit(code)
}

// result is what one rig command did.
type result struct {
	code           int
	stdout, stderr string
}

// rig runs one command in dir, as `rig -chdir=dir ARGS`, with no stdin.
func rig(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return rigInput(t, dir, "", args...)
}

// rigInput runs one command with the given standard input
// (commandtest.Run).
func rigInput(t *testing.T, dir, input string, args ...string) result {
	t.Helper()
	r := commandtest.Run(t, func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return Main(args, Streams{In: stdin, Out: stdout, Err: stderr})
	}, dir, input, args...)
	return result{code: r.Code, stdout: r.Stdout, stderr: r.Stderr}
}

// workDir copies the files of testdata/NAME (or the given files) into a new temporary directory.
func workDir(t *testing.T, files map[string]string) string {
	t.Helper()
	return commandtest.WorkDir(t, files)
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	commandtest.WriteFile(t, dir, name, content)
}

// normalize replaces what varies between runs (ids, elapsed times, deposed
// keys, temporary paths) with fixed placeholders.
func normalize(s string) string { return commandtest.Normalize(s) }

// golden compares got, normalized, with testdata/NAME.golden, rewriting
// it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name+".golden"), normalize(got))
}

// checkContains reports each of wants that out lacks, naming the output
// (what: "plan", "the log") and showing it whole.
func checkContains(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, out)
		}
	}
}

// stateFile is the parts of a v4 state file the tests check.
type stateFile = commandtest.StateFile

// readStateFile reads and strictly checks dir/terraform.tfstate.
func readStateFile(t *testing.T, dir string) (stateFile, []byte) {
	t.Helper()
	return commandtest.ReadStateFile(t, dir)
}

// instanceCount counts the current and deposed objects in a state file.
func instanceCount(sf stateFile) int { return commandtest.InstanceCount(sf) }

// buildRig returns the rig binary, built once per test process.
func buildRig(t *testing.T) string {
	t.Helper()
	return commandtest.BuildRig(t)
}
