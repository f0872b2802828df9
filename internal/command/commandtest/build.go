package commandtest

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built is what this test process built, each at most once; dir holds the
// binaries until Cleanup.
var built struct {
	mu       sync.Mutex
	dir      string
	rig      string
	provider string
	fixture  string
}

// builtDir returns the directory of this process's builds, creating it;
// built.mu is held.
func builtDir() (string, error) {
	if built.dir == "" {
		dir, err := os.MkdirTemp("", "rig-commandtest-")
		if err != nil {
			return "", err
		}
		built.dir = dir
	}
	return built.dir, nil
}

// BuildRig returns the path of the rig binary, built from this checkout
// the first time a test of the process asks. It skips the test with
// -short.
func BuildRig(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the rig binary; skipped with -short")
	}
	built.mu.Lock()
	defer built.mu.Unlock()
	if built.rig == "" {
		dir, err := builtDir()
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "rig"+exeSuffix)
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/rig-iac/rig/cmd/rig").CombinedOutput(); err != nil {
			t.Fatalf("building rig: %v\n%s", err, out)
		}
		built.rig = bin
	}
	return built.rig
}

// TestProvider puts the test provider plugin (provider/plugin/testdata/
// testprovider, built once per process) into a new directory of the test's
// as terraform-provider-test, for a dev_overrides entry "rig/test" = DIR,
// and returns the executable's path.
func TestProvider(t testing.TB) string {
	t.Helper()
	built.mu.Lock()
	if built.provider == "" {
		dir, err := builtDir()
		if err != nil {
			built.mu.Unlock()
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "terraform-provider-test"+exeSuffix)
		out, err := exec.Command("go", "build", "-o", bin, "github.com/rig-iac/rig/internal/provider/plugin/testdata/testprovider").CombinedOutput()
		if err != nil {
			built.mu.Unlock()
			t.Fatalf("building the test provider: %v\n%s", err, out)
		}
		built.provider = bin
	}
	src := built.provider
	built.mu.Unlock()
	exe := filepath.Join(t.TempDir(), "terraform-provider-test"+exeSuffix)
	if err := copyExecutable(src, exe); err != nil {
		t.Fatalf("copying the test provider: %v", err)
	}
	return exe
}

// FixtureProvider builds the plugin that serves the schema of test-file
// fixtures (provider/plugin/testdata/fixtureprovider, once per process)
// and returns the directory holding it as terraform-provider-test, for a
// dev_overrides entry "hashicorp/test" = DIR.
func FixtureProvider(t testing.TB) string {
	t.Helper()
	built.mu.Lock()
	defer built.mu.Unlock()
	if built.fixture == "" {
		dir, err := builtDir()
		if err != nil {
			t.Fatal(err)
		}
		fdir := filepath.Join(dir, "fixtureprovider")
		out, err := exec.Command("go", "build", "-o", filepath.Join(fdir, "terraform-provider-test"+exeSuffix),
			"github.com/rig-iac/rig/internal/provider/plugin/testdata/fixtureprovider").CombinedOutput()
		if err != nil {
			t.Fatalf("building the fixture provider: %v\n%s", err, out)
		}
		built.fixture = fdir
	}
	return built.fixture
}

func copyExecutable(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Cleanup removes what the process built; call it from TestMain after
// the tests ran.
func Cleanup() {
	built.mu.Lock()
	defer built.mu.Unlock()
	if built.dir != "" {
		if err := os.RemoveAll(built.dir); err != nil {
			fmt.Fprintf(os.Stderr, "commandtest: %v\n", err)
		}
		built.dir, built.rig, built.provider, built.fixture = "", "", "", ""
	}
}
