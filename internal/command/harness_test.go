package command

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/builtin"
	"github.com/rig-iac/rig/internal/provider/plugin"
)

var update = flag.Bool("update", false, "rewrite golden files")

// cwdMu serializes commands: Main changes the process's working directory.
var cwdMu sync.Mutex

var idCounter atomic.Int64

func TestMain(m *testing.M) {
	// An empty CLI configuration: the developer's own (or a
	// TF_CLI_CONFIG_FILE naming a missing file) must not change the output.
	if f, err := os.CreateTemp("", "rig-cli-config-*.tfrc"); err == nil {
		f.Close()
		os.Setenv("TF_CLI_CONFIG_FILE", f.Name())
	}
	// Predictable ids: id-1, id-2, … in creation order.
	newBuiltinTerraform = func() provider.Interface {
		return &builtin.Terraform{
			NewID:           func() string { return fmt.Sprintf("id-%d", idCounter.Add(1)) },
			ReadRemoteState: readRemoteState,
		}
	}
	code := m.Run()
	if builtRig.dir != "" {
		os.RemoveAll(builtRig.dir)
	}
	plugin.CleanupClients()
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

// rigInput runs one command with the given standard input.
func rigInput(t *testing.T, dir, input string, args ...string) result {
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
	code := Main(append([]string{"-chdir=" + dir}, args...), Streams{In: strings.NewReader(input), Out: &out, Err: &errb})
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// workdir copies the files of testdata/NAME (or the given files) into a new temporary directory.
func workdir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

var (
	idPattern       = regexp.MustCompile(`id-\d+`)
	elapsedPattern  = regexp.MustCompile(`after \d+s`)
	deposedPattern  = regexp.MustCompile(`deposed object [0-9a-f]{8}`)
	tempDirPattern  = regexp.MustCompile(`/tmp/[^\s"]*`)
	timestampFormat = regexp.MustCompile(`"@timestamp":"[^"]*"`)
)

// normalize replaces what varies between runs (ids, elapsed times, deposed
// keys, temporary paths) with fixed placeholders.
func normalize(s string) string {
	s = sortRefreshLines(s)
	s = idPattern.ReplaceAllString(s, "id-N")
	s = elapsedPattern.ReplaceAllString(s, "after Ns")
	s = deposedPattern.ReplaceAllString(s, "deposed object XXXXXXXX")
	s = tempDirPattern.ReplaceAllString(s, "TMPDIR")
	s = timestampFormat.ReplaceAllString(s, `"@timestamp":"T"`)
	return s
}

// golden compares got with testdata/NAME.golden, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	got = normalize(got)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with -update to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// stateFile is the parts of a v4 state file the tests check.
type stateFile struct {
	Version          int                        `json:"version"`
	TerraformVersion string                     `json:"terraform_version"`
	Serial           uint64                     `json:"serial"`
	Lineage          string                     `json:"lineage"`
	Outputs          map[string]json.RawMessage `json:"outputs"`
	Resources        []struct {
		Module    string `json:"module"`
		Mode      string `json:"mode"`
		Type      string `json:"type"`
		Name      string `json:"name"`
		Provider  string `json:"provider"`
		Instances []struct {
			IndexKey            any             `json:"index_key"`
			Status              string          `json:"status"`
			Deposed             string          `json:"deposed"`
			SchemaVersion       *int            `json:"schema_version"`
			Attributes          json.RawMessage `json:"attributes"`
			Dependencies        []string        `json:"dependencies"`
			CreateBeforeDestroy bool            `json:"create_before_destroy"`
		} `json:"instances"`
	} `json:"resources"`
}

// readStateFile reads and strictly checks dir/terraform.tfstate.
func readStateFile(t *testing.T, dir string) (stateFile, []byte) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatalf("reading state: %v", err)
	}
	var sf stateFile
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&sf); err != nil {
		t.Fatalf("state is not valid JSON: %v", err)
	}
	if sf.Version != 4 || sf.Lineage == "" || sf.TerraformVersion == "" {
		t.Fatalf("state is not a v4 state: version=%d lineage=%q terraform_version=%q", sf.Version, sf.Lineage, sf.TerraformVersion)
	}
	for _, r := range sf.Resources {
		for _, inst := range r.Instances {
			if inst.SchemaVersion == nil || inst.Attributes == nil {
				t.Fatalf("instance of %s.%s lacks schema_version or attributes", r.Type, r.Name)
			}
		}
	}
	return sf, raw
}

// instanceCount counts the current and deposed objects in a state file.
func instanceCount(sf stateFile) int {
	n := 0
	for _, r := range sf.Resources {
		n += len(r.Instances)
	}
	return n
}

// buildRig returns the rig binary, built once per test process.
func buildRig(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the rig binary; skipped with -short")
	}
	builtRig.once.Do(func() {
		if builtRig.dir, builtRig.err = os.MkdirTemp("", "rig-bin-"); builtRig.err != nil {
			return
		}
		builtRig.path = filepath.Join(builtRig.dir, "rig")
		if out, err := exec.Command("go", "build", "-o", builtRig.path, "github.com/rig-iac/rig/cmd/rig").CombinedOutput(); err != nil {
			builtRig.err = fmt.Errorf("building rig: %v\n%s", err, out)
		}
	})
	if builtRig.err != nil {
		t.Fatal(builtRig.err)
	}
	return builtRig.path
}

// builtRig is the rig binary buildRig builds once per test process, in a
// directory TestMain removes.
var builtRig struct {
	once      sync.Once
	dir, path string
	err       error
}

// sortRefreshLines sorts each run of "ADDR: Refreshing state..." lines:
// objects are read in parallel, in no set order.
func sortRefreshLines(s string) string {
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); {
		if !strings.Contains(lines[i], ": Refreshing state...") {
			i++
			continue
		}
		j := i
		for j < len(lines) && strings.Contains(lines[j], ": Refreshing state...") {
			j++
		}
		slices.Sort(lines[i:j])
		i = j
	}
	return strings.Join(lines, "\n")
}
