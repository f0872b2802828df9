package command

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// nestedModules calls a module that calls another, and that other one
// directly, as `modules` shows them.
var nestedModules = map[string]string{
	"main.tf": `module "a" {
  source = "./a"
}
module "z" {
  source = "./a/b"
}
`,
	"a/main.tf": `module "b" {
  source = "./b"
  count  = 2
}
`,
	"a/b/main.tf": `output "x" {
  value = 1
}
`,
}

// `get` installs the modules (only those missing, or all with -update)
// and `modules` lists them as a tree or, with -json, as Terraform's list.
func TestGetAndModules(t *testing.T) {
	remote := workDir(t, map[string]string{"main.tf": "module \"r\" {\n  source = \"acme/r/aws\"\n}\n"})
	r := rig(t, remote, "modules", "-json")
	if r.code != 1 || !strings.Contains(r.stderr, "rig init") {
		t.Errorf("modules with a registry module not installed: exit %d\n%s", r.code, r.stderr)
	}
	dir := workDir(t, nestedModules)
	r = rig(t, dir, "get", "-no-color")
	if r.code != 0 {
		t.Fatalf("get: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "initget/get", r.stdout)
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "modules", "modules.json")); err != nil {
		t.Fatalf("get wrote no manifest: %v", err)
	}
	if r := rig(t, dir, "get", "-update", "-no-color"); r.code != 0 {
		t.Fatalf("get -update: exit %d\n%s", r.code, r.stderr)
	}
	r = rig(t, dir, "modules", "-no-color")
	if r.code != 0 {
		t.Fatalf("modules: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "initget/modules", r.stdout)
	r = rig(t, dir, "modules", "-json")
	if r.code != 0 {
		t.Fatalf("modules -json: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "initget/modules-json", r.stdout)

	empty := workDir(t, map[string]string{"main.tf": `output "x" {
  value = 1
}
`})
	if r := rig(t, empty, "modules"); r.code != 0 || r.stdout != "No modules found in configuration.\n" {
		t.Errorf("modules without calls: exit %d %q", r.code, r.stdout)
	}
}

// `modules -json` prints what Terraform 1.11 prints for the same
// configuration.
func TestModulesJSONLikeTerraform(t *testing.T) {
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not installed")
	}
	dir := workDir(t, nestedModules)
	cmd := exec.Command(tf, "init", "-no-color", "-backend=false")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+os.Getenv("TF_CLI_CONFIG_FILE"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform init: %v\n%s", err, out)
	}
	cmd = exec.Command(tf, "modules", "-json")
	cmd.Dir = dir
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("terraform modules -json: %v", err)
	}
	r := rig(t, dir, "modules", "-json")
	if r.code != 0 {
		t.Fatalf("rig modules -json: exit %d\n%s", r.code, r.stderr)
	}
	// Terraform's order of the modules is not stable (it has been seen to
	// differ between runs of this test); rig lists them sorted by key. The entries must be the same.
	if got, want := sortedModuleEntries(t, r.stdout), sortedModuleEntries(t, string(want)); got != want {
		t.Errorf("rig modules -json (entries sorted):\n%s\nterraform modules -json (entries sorted):\n%s", got, want)
	}
}

// sortedModuleEntries returns the document of `modules -json` with its
// modules sorted by key, as JSON.
func sortedModuleEntries(t *testing.T, doc string) string {
	t.Helper()
	var d struct {
		FormatVersion string            `json:"format_version"`
		Modules       []json.RawMessage `json:"modules"`
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	sort.Slice(d.Modules, func(i, j int) bool { return string(d.Modules[i]) < string(d.Modules[j]) })
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// init -from-module copies a module into an empty working directory and
// initializes it; a directory with files is refused.
func TestInitFromModule(t *testing.T) {
	src := workDir(t, map[string]string{
		"main.tf":            "module \"sub\" {\n  source = \"./sub\"\n}\nresource \"terraform_data\" \"a\" {}\n",
		"sub/main.tf":        "resource \"terraform_data\" \"s\" {}\n",
		".terraform/ignored": "not copied",
	})
	dir := t.TempDir()
	r := rig(t, dir, "init", "-no-color", "-from-module="+src)
	if r.code != 0 {
		t.Fatalf("init -from-module: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Copying configuration from") || !strings.Contains(r.stdout, "rig has been successfully initialized!") {
		t.Errorf("init output:\n%s", r.stdout)
	}
	for _, f := range []string{"main.tf", "sub/main.tf"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not copied: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "ignored")); err == nil {
		t.Errorf("the source's .terraform was copied")
	}
	if r := rig(t, dir, "plan", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, "2 to add") {
		t.Errorf("plan after init -from-module: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "init", "-no-color", "-from-module="+src)
	if r.code != 1 || !strings.Contains(r.stderr, "Can't populate non-empty directory") {
		t.Errorf("init -from-module into a directory with files: exit %d\n%s", r.code, r.stderr)
	}
}

// init -from-module fetches a remote source (here git) as a module call
// would, and leaves no temporary directory behind.
func TestInitFromGitModule(t *testing.T) {
	repo := gitRepo(t, map[string]string{"app/main.tf": "resource \"terraform_data\" \"app\" {}\n"})
	dir := t.TempDir()
	r := rig(t, dir, "init", "-no-color", "-from-module=git::file://"+filepath.ToSlash(repo)+"//app?ref=v1")
	if r.code != 0 {
		t.Fatalf("init -from-module=git: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "main.tf")); err != nil || !strings.Contains(string(b), "terraform_data") {
		t.Errorf("main.tf not copied from the repository: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "init-from-module")); err == nil {
		t.Errorf("the temporary directory is left")
	}
}

// init -json prints OpenTofu's messages, one JSON object a line (the
// backend's step first, each module installed, the closing advice in one
// message), and
// -json-into writes them into a file beside the human output; -backend and
// -cloud are one option.
func TestInitJSON(t *testing.T) {
	dir := workDir(t, nestedModules)
	r := rig(t, dir, "init", "-json")
	if r.code != 0 {
		t.Fatalf("init -json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	golden(t, "initget/init-json", r.stdout)
	into := filepath.Join(t.TempDir(), "init.json")
	r = rig(t, dir, "init", "-no-color", "-json-into="+into)
	if r.code != 0 || !strings.Contains(r.stdout, "rig has been successfully initialized!") {
		t.Fatalf("init -json-into: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(into)
	if err != nil {
		t.Fatal(err)
	}
	var last struct {
		Message string `json:"@message"`
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || !strings.HasPrefix(last.Message, "You may now begin working with rig.") ||
		!strings.Contains(last.Message, "should now work. If you ever set or change modules or backend configuration for rig,") {
		t.Errorf("the -json-into file ends with %q (%v):\n%s", last.Message, err, b)
	}
	bad := workDir(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {\n"})
	r = rig(t, bad, "init", "-json")
	if r.code != 1 || !strings.Contains(r.stdout, `"type":"diagnostic"`) || r.stderr != "" {
		t.Errorf("init -json with an error: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "init", "-no-color", "-backend=false", "-cloud=false")
	if r.code != 1 || !strings.Contains(r.stderr, "aliases of one another") {
		t.Errorf("-backend with -cloud: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "init", "-no-color", "-cloud=false"); r.code != 0 || strings.Contains(r.stdout, "Initializing the backend") {
		t.Errorf("-cloud=false does not skip the backend: exit %d\n%s", r.code, r.stdout)
	}
}
