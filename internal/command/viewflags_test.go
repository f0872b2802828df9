package command

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quotedRefs is a configuration with two warnings of one summary.
const quotedRefs = `resource "terraform_data" "a" {}
resource "terraform_data" "b" {
  depends_on = ["terraform_data.a"]
}
resource "terraform_data" "c" {
  depends_on = ["terraform_data.a"]
}
`

// Warnings with one summary are shown once with how many more there are,
// as OpenTofu and Terraform show them; -consolidate-warnings=false shows
// each; -compact-warnings shows only their summaries and places.
func TestWarningsConsolidatedAndCompact(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": quotedRefs})
	cases := []struct {
		name string
		args []string
	}{
		{"consolidated", []string{"validate", "-no-color"}},
		{"each", []string{"validate", "-no-color", "-consolidate-warnings=false"}},
		{"compact", []string{"validate", "-no-color", "-compact-warnings"}},
		{"compact-plan", []string{"plan", "-no-color", "-compact-warnings"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rig(t, dir, tc.args...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			golden(t, "viewflags/warnings-"+tc.name, r.stdout)
		})
	}
}

// -compact-warnings shows the full diagnostics when there is an error too:
// a warning may explain the error.
func TestCompactWarningsWithError(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": quotedRefs + `output "x" {
  value = terraform_data.nope.id
}
`})
	r := rig(t, dir, "validate", "-no-color", "-compact-warnings")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.stderr)
	}
	checkContains(t, "output", r.stdout+r.stderr, "Warning: Quoted references are deprecated", "Error: Reference to undeclared resource", "In this context, references are expected literally")
	if strings.Contains(r.stdout, "without -compact-warnings") {
		t.Errorf("warnings shown compact beside an error:\n%s", r.stdout)
	}
}

// -consolidate-errors shows errors of one summary once.
func TestConsolidateErrors(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `output "x" {
  value = terraform_data.nope.id
}
output "y" {
  value = terraform_data.nope.id
}
`})
	r := rig(t, dir, "validate", "-no-color")
	if n := strings.Count(r.stderr, "Error: Reference to undeclared resource"); n != 2 {
		t.Errorf("without -consolidate-errors: %d errors shown, want 2:\n%s", n, r.stderr)
	}
	r = rig(t, dir, "validate", "-no-color", "-consolidate-errors")
	if n := strings.Count(r.stderr, "Error: Reference to undeclared resource"); n != 1 || !strings.Contains(r.stderr, "(and one more similar error elsewhere)") {
		t.Errorf("with -consolidate-errors: %d errors shown, want 1 with a note:\n%s", n, r.stderr)
	}
}

// sensitiveConfig has a sensitive value in a resource and in an output.
const sensitiveConfig = `variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}
resource "terraform_data" "a" {
  input = {
    name   = "web"
    secret = var.secret
  }
}
output "s" {
  value     = var.secret
  sensitive = true
}
`

// Sensitive values are shown only when -show-sensitive asks, by every
// command that renders values: plan, apply, show, state show and output.
func TestShowSensitive(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": sensitiveConfig})
	steps := []struct {
		args []string
		// shown is what -show-sensitive shows in place of the hidden form.
		hidden, shown string
	}{
		{[]string{"plan"}, `secret = (sensitive value)`, `secret = "hunter2"`},
		{[]string{"apply", "-auto-approve"}, `s = <sensitive>`, `s = "hunter2"`},
		{[]string{"show"}, `secret = (sensitive value)`, `secret = "hunter2"`},
		{[]string{"state", "show", "terraform_data.a"}, `secret = (sensitive value)`, `secret = "hunter2"`},
		{[]string{"output"}, `s = <sensitive>`, `s = "hunter2"`},
	}
	for _, s := range steps {
		name := strings.Join(s.args[:1], " ")
		plain := rig(t, dir, append(s.args, "-no-color")...)
		if plain.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", name, plain.code, plain.stdout, plain.stderr)
		}
		if strings.Contains(plain.stdout+plain.stderr, "hunter2") || !strings.Contains(plain.stdout, s.hidden) {
			t.Errorf("%s without -show-sensitive: want %q and no secret:\n%s", name, s.hidden, plain.stdout)
		}
		if s.args[0] == "apply" {
			continue // applied once; shown below with nothing to change
		}
		shown := rig(t, dir, append(s.args, "-no-color", "-show-sensitive")...)
		if shown.code != 0 || !strings.Contains(shown.stdout, s.shown) {
			t.Errorf("%s -show-sensitive: exit %d, want %q:\n%s%s", name, shown.code, s.shown, shown.stdout, shown.stderr)
		}
	}
	r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-show-sensitive")
	if !strings.Contains(r.stdout, `s = "hunter2"`) {
		t.Errorf("apply -show-sensitive does not show the output:\n%s", r.stdout)
	}
}

// -json-into writes the machine-readable stream into a file (0600) while
// the human output goes to the terminal, for plan, apply and destroy; it
// and -json exclude each other.
func TestJSONInto(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": quotedRefs})
	for _, args := range [][]string{{"plan"}, {"apply", "-auto-approve"}, {"destroy", "-auto-approve"}} {
		file := filepath.Join(t.TempDir(), args[0]+".json")
		r := rig(t, dir, append(args, "-no-color", "-json-into="+file)...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", args[0], r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout, `"@level"`) || !strings.Contains(r.stdout, "terraform_data.a") {
			t.Errorf("%s: stdout is not the human output:\n%s", args[0], r.stdout)
		}
		if !strings.Contains(r.stdout, "Warning: Quoted references are deprecated") {
			t.Errorf("%s: the warning is not shown to people:\n%s", args[0], r.stderr)
		}
		fi, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %s has mode %v, want 0600", args[0], file, fi.Mode().Perm())
		}
		types := jsonTypes(t, file)
		want := map[string][]string{
			"plan":    {"version", "diagnostic", "planned_change", "change_summary"},
			"apply":   {"version", "diagnostic", "planned_change", "apply_start", "apply_complete", "change_summary", "outputs"},
			"destroy": {"version", "diagnostic", "refresh_start", "planned_change", "apply_start", "apply_complete", "change_summary"},
		}[args[0]]
		for _, w := range want {
			if !types[w] {
				t.Errorf("%s: the JSON stream has no %q message", args[0], w)
			}
		}
	}
	r := rig(t, dir, "plan", "-json", "-json-into="+filepath.Join(t.TempDir(), "x.json"))
	if r.code != 1 || !strings.Contains(r.stdout, "The -json and -json-into arguments are mutually exclusive") {
		t.Errorf("-json with -json-into: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "plan", "-no-color", "-json-into="+filepath.Join(dir, "no", "such", "dir.json"))
	if r.code != 1 || !strings.Contains(r.stderr, "Unable to open the file") {
		t.Errorf("-json-into into a missing directory: exit %d\n%s", r.code, r.stderr)
	}
}

// jsonTypes returns the "type" of every line of a JSON line stream, which
// must each be a JSON object.
func jsonTypes(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	types := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var msg struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("%s: line is not JSON: %v\n%s", path, err, sc.Text())
		}
		types[msg.Type] = true
	}
	return types
}

// -concise leaves out progress messages; the plan, the summary and the
// outputs stay.
func TestConcise(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}
output "id" {
  value = terraform_data.a.id
}
`})
	r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-concise")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	checkContains(t, "apply -concise", r.stdout, "# terraform_data.a will be created", "Apply complete! Resources: 1 added", "Outputs:")
	if strings.Contains(r.stdout, "Creating...") || strings.Contains(r.stdout, "Creation complete") {
		t.Errorf("apply -concise shows progress:\n%s", r.stdout)
	}
	r = rig(t, dir, "destroy", "-auto-approve", "-no-color", "-concise")
	if r.code != 0 || strings.Contains(r.stdout, "Refreshing state") || strings.Contains(r.stdout, "Destroying...") {
		t.Errorf("destroy -concise: exit %d, progress shown:\n%s", r.code, r.stdout)
	}
	r = rig(t, dir, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(r.stdout, "terraform_data.a: Creation complete") {
		t.Errorf("apply without -concise shows no progress:\n%s", r.stdout)
	}
	imp := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "b" {}` + "\n"})
	r = rig(t, imp, "import", "-no-color", "-concise", "terraform_data.b", "id-b")
	if r.code != 0 || strings.Contains(r.stdout, "Importing from ID") || !strings.Contains(r.stdout, "Import successful!") {
		t.Errorf("import -concise: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A module call that sets a variable its module declares deprecated is
// warned about, as OpenTofu warns; -deprecation=module:local leaves out
// the warnings about modules installed from a remote source, and
// -deprecation=module:none all of them. A deprecated root variable set by
// the user is warned about whatever -deprecation says.
func TestDeprecationLevels(t *testing.T) {
	module := `variable "old" {
  default    = ""
  deprecated = "Use new instead."
}
variable "new" {
  default = ""
}
`
	dir := workDir(t, map[string]string{
		"main.tf": `variable "legacy" {
  default    = "x"
  deprecated = "Nothing reads it any more."
}
module "own" {
  source = "./own"
  old    = "a"
}
module "own_again" {
  source = "./own"
  old    = "a"
}
module "ext" {
  source  = "acme/ext/aws"
  version = "1.0.0"
  old     = "b"
}
`,
		"own/main.tf":                    module,
		".terraform/modules/ext/main.tf": module,
		".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
			`{"Key":"ext","Source":"registry.terraform.io/acme/ext/aws","Version":"1.0.0","Dir":".terraform/modules/ext"},` +
			`{"Key":"own","Source":"./own","Dir":"own"},{"Key":"own_again","Source":"./own","Dir":"own"}]}`,
	})
	const summary = "Warning: Variable marked as deprecated by the module author"
	cases := []struct {
		level         string
		local, remote bool
	}{
		{"", true, true},
		{"-deprecation=module:all", true, true},
		{"-deprecation=module:local", true, false},
		{"-deprecation=module:none", false, false},
	}
	for _, tc := range cases {
		args := []string{"plan", "-no-color", "-var=legacy=y", "-consolidate-warnings=false"}
		if tc.level != "" {
			args = append(args, tc.level)
		}
		r := rig(t, dir, args...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", tc.level, r.code, r.stdout, r.stderr)
		}
		local := strings.Contains(r.stdout, `7:   old    = "a"`)
		remote := strings.Contains(r.stdout, `old     = "b"`)
		if local != tc.local || remote != tc.remote {
			t.Errorf("%q: warned about the local module %v (want %v), the remote one %v (want %v):\n%s", tc.level, local, tc.local, remote, tc.remote, r.stderr)
		}
		if n := strings.Count(r.stdout, summary); tc.local && tc.remote && n != 2 {
			t.Errorf("%q: %d warnings, want 2 (one for both calls of ./own):\n%s", tc.level, n, r.stderr)
		}
		if !strings.Contains(r.stdout, "Warning: Deprecated variable used from the root module") {
			t.Errorf("%q: no warning about the root variable:\n%s", tc.level, r.stderr)
		}
	}
	r := rig(t, dir, "plan", "-no-color", "-deprecation=remote")
	if r.code != 1 || !strings.Contains(r.stderr, `invalid value "remote" for flag -deprecation`) || !strings.Contains(r.stderr, "module:none") {
		t.Errorf("-deprecation=remote: exit %d\n%s", r.code, r.stderr)
	}
}
