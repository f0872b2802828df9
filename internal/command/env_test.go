package command

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/getproviders"
)

const envVarConfig = `
variable "v" {
  type = string
}
resource "terraform_data" "a" {
  input = var.v
}
output "v" {
  value = var.v
}
`

// TestCLIArgsFromEnvironment: TF_CLI_ARGS and TF_CLI_ARGS_NAME add their
// words after the command's name, before the command line's own, so that
// the command line wins.
func TestCLIArgsFromEnvironment(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": envVarConfig})
	t.Setenv("TF_CLI_ARGS_plan", `-var "v=from the environment" -no-color`)
	r := rig(t, dir, "plan")
	if r.code != 0 || !strings.Contains(r.stdout, `+ v = "from the environment"`) || strings.Contains(r.stdout, "\x1b[") {
		t.Fatalf("TF_CLI_ARGS_plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = rig(t, dir, "plan", "-var=v=from the command line")
	if r.code != 0 || !strings.Contains(r.stdout, `+ v = "from the command line"`) {
		t.Fatalf("the command line must win: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Another command does not take plan's.
	r = rig(t, dir, "validate")
	if r.code != 0 || !strings.Contains(r.stdout, "\x1b[") {
		t.Fatalf("validate took TF_CLI_ARGS_plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	t.Setenv("TF_CLI_ARGS_plan", "")

	// Every command's, and a subcommand's by its full name.
	t.Setenv("TF_CLI_ARGS", "-no-color")
	t.Setenv("TF_CLI_ARGS_state", "-bogus")
	// No state yet: state list says so, and did not take -bogus.
	if r = rig(t, dir, "state", "list"); r.code != 1 || !strings.Contains(r.stderr, "No state file was found") {
		t.Fatalf("TF_CLI_ARGS_state applied to state list: exit %d\n%s", r.code, r.stderr)
	}
	t.Setenv("TF_CLI_ARGS_state_list", "-bogus")
	r = rig(t, dir, "state", "list")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Failed to parse command-line flags") ||
		!strings.Contains(r.stderr, "flag provided but not defined: -bogus") || !strings.HasPrefix(r.stdout, "Usage: rig [global options] state list") ||
		strings.Contains(r.stderr, "\x1b[") {
		t.Fatalf("TF_CLI_ARGS_state_list: exit %d\n%s", r.code, r.stderr)
	}

	// Words a shell could not split stop rig before the command runs.
	t.Setenv("TF_CLI_ARGS", `-var "v=unterminated`)
	r = rig(t, dir, "plan")
	if r.code != 1 || r.stderr != "Error parsing extra CLI args from TF_CLI_ARGS: invalid command line string\n" {
		t.Fatalf("bad TF_CLI_ARGS: exit %d\n%q", r.code, r.stderr)
	}
}

// TestInputFromEnvironment: TF_INPUT=false or 0 is -input=false for every
// command, whatever -input says: rig never prompts and says what is
// missing instead.
func TestInputFromEnvironment(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": envVarConfig})
	r := rigInput(t, dir, "typed\n", "plan", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "var.v\n") || !strings.Contains(r.stdout, `+ v = "typed"`) {
		t.Fatalf("prompt: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, v := range []string{"0", "false", "FALSE", "f"} {
		t.Run("TF_INPUT="+v, func(t *testing.T) {
			t.Setenv("TF_INPUT", v)
			for _, args := range [][]string{{"plan", "-no-color"}, {"plan", "-no-color", "-input=true"}} {
				r := rigInput(t, dir, "typed\n", args...)
				if r.code != 1 || strings.Contains(r.stdout, "Enter a value") || !strings.Contains(r.stderr, "Error: No value for required variable") {
					t.Errorf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
				}
			}
			// No approval can be asked for either.
			r := rigInput(t, dir, "yes\n", "apply", "-no-color", "-var=v=x")
			if r.code != 1 || strings.Contains(r.stdout, "Enter a value") || !strings.Contains(r.stderr, "Error: Plan file or auto-approve required") {
				t.Errorf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
				t.Errorf("apply without approval wrote a state")
			}
		})
	}
	t.Setenv("TF_INPUT", "1")
	if r := rigInput(t, dir, "typed\n", "plan", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, `+ v = "typed"`) {
		t.Fatalf("TF_INPUT=1 prompts: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestInAutomation: with TF_IN_AUTOMATION set, init and plan leave out the
// advice about which command to run next.
func TestInAutomation(t *testing.T) {
	advice := []string{
		"You may now begin working with rig",
		"Note: You didn't use the -out option",
		"To perform exactly these actions, run the following command to apply",
	}
	run := func(t *testing.T) string {
		dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})
		out := rigOK(t, dir, "init", "-no-color").stdout
		out += rigOK(t, dir, "plan", "-no-color").stdout
		out += rigOK(t, dir, "plan", "-no-color", "-out=saved.plan").stdout
		return out
	}
	out := run(t)
	for _, a := range advice {
		if !strings.Contains(out, a) {
			t.Fatalf("without TF_IN_AUTOMATION, %q is missing:\n%s", a, out)
		}
	}
	t.Setenv("TF_IN_AUTOMATION", "1")
	out = run(t)
	for _, a := range advice {
		if strings.Contains(out, a) {
			t.Errorf("with TF_IN_AUTOMATION, %q is shown:\n%s", a, out)
		}
	}
	if !strings.Contains(out, "rig has been successfully initialized!") || !strings.Contains(out, "Plan: 1 to add") {
		t.Errorf("the rest of the output is missing:\n%s", out)
	}
}

// rigOK runs one command, which must succeed.
func rigOK(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r := rig(t, dir, args...)
	if r.code != 0 {
		t.Fatalf("rig %s: exit %d\n%s\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

// testProviderMirror returns a local mirror directory (unpacked layout)
// holding the test provider as rig/test 0.0.1.
func testProviderMirror(t *testing.T) string {
	t.Helper()
	mirror := t.TempDir()
	dir := filepath.Join(mirror, "registry.terraform.io", "rig", "test", "0.0.1", getproviders.CurrentPlatform.String())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform-provider-test_v0.0.1"), testProviderExecutable(t), 0o755); err != nil {
		t.Fatal(err)
	}
	return mirror
}

// TestDataDir: with TF_DATA_DIR, everything rig keeps in .terraform — the
// installed modules and their manifest, the providers and the -plugin-dir
// record, the backend record, the selected workspace, the timeline — is
// kept in that directory instead, relative to the working directory.
func TestDataDir(t *testing.T) {
	mirror := testProviderMirror(t)
	files := map[string]string{
		"main.tf": `
terraform {
  required_providers {
    test = { source = "rig/test" }
  }
  backend "local" {
    path = "states/main.tfstate"
  }
}
module "local" {
  source = "./mod"
}
resource "test_thing" "a" {
  name = "a"
}
`,
		"mod/main.tf": `resource "terraform_data" "m" {}`,
	}
	gitSource := ""
	if _, err := exec.LookPath("git"); err == nil {
		gitSource = strings.Replace(gitModuleRepo(t, map[string]string{"naming/main.tf": `variable "prefix" {}
resource "terraform_data" "name" {
  input = "${var.prefix}-v1"
}
`}), "?ref=main", "//naming?ref=main", 1)
		files["main.tf"] += `
module "remote" {
  source = "` + gitSource + `"
  prefix = "x"
}
`
	}
	dir := workDir(t, files)
	t.Setenv("TF_DATA_DIR", "ci-data")
	r := rigOK(t, dir, "init", "-no-color", "-plugin-dir="+mirror)
	if gitSource != "" && !strings.Contains(r.stdout, "- remote in ci-data/modules/remote/naming") {
		t.Errorf("init did not install the git module into ci-data:\n%s", r.stdout)
	}
	rigOK(t, dir, "workspace", "new", "dev", "-no-color")
	rigOK(t, dir, "apply", "-no-color", "-auto-approve")
	platform := getproviders.CurrentPlatform.String()
	for _, f := range []string{
		"ci-data/terraform.tfstate",
		"ci-data/environment",
		"ci-data/plugin_path",
		"ci-data/modules/modules.json",
		"ci-data/providers/registry.terraform.io/rig/test/0.0.1/" + platform + "/terraform-provider-test_v0.0.1",
		"ci-data/rig-timeline.json",
		"terraform.tfstate.d/dev/terraform.tfstate",
		".terraform.lock.hcl",
	} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	if gitSource != "" {
		if _, err := os.Stat(filepath.Join(dir, "ci-data/modules/remote/naming/main.tf")); err != nil {
			t.Errorf("git module not in ci-data/modules: %v", err)
		}
		if manifest := readFile(t, dir, "ci-data/modules/modules.json"); !strings.Contains(manifest, `"Dir":"ci-data/modules/remote/naming"`) {
			t.Errorf("manifest:\n%s", manifest)
		}
	}
	if got := readFile(t, dir, "ci-data/environment"); got != "dev" {
		t.Errorf("environment = %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform")); !os.IsNotExist(err) {
		t.Errorf(".terraform was created: %v", err)
	}
	r = rigOK(t, dir, "plan", "-no-color", "-detailed-exitcode")
	if !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("plan with TF_DATA_DIR:\n%s", r.stdout)
	}
	rigOK(t, dir, "show", "-no-color", "-timeline="+filepath.Join(t.TempDir(), "t.html"))

	// Without TF_DATA_DIR the working directory is not initialized.
	t.Setenv("TF_DATA_DIR", "")
	r = rig(t, dir, "plan", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "rig init") {
		t.Errorf("plan without TF_DATA_DIR: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// An absolute TF_DATA_DIR is used as it is.
	dir = workDir(t, files)
	abs := filepath.Join(t.TempDir(), "data")
	t.Setenv("TF_DATA_DIR", abs)
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+mirror)
	for _, f := range []string{"terraform.tfstate", "modules/modules.json", "providers"} {
		if _, err := os.Stat(filepath.Join(abs, f)); err != nil {
			t.Errorf("missing %s in the absolute TF_DATA_DIR: %v", f, err)
		}
	}
	if gitSource != "" {
		if manifest := readFile(t, abs, "modules/modules.json"); !strings.Contains(manifest, `"Dir":"`+filepath.ToSlash(abs)+`/modules/remote/naming"`) {
			t.Errorf("manifest:\n%s", manifest)
		}
	}
	rigOK(t, dir, "plan", "-no-color")
}

// TestCoreLog: TF_LOG (or TF_LOG_CORE) makes rig log what it does — its
// version and arguments, the configuration, the plan and its graph, each
// operation, the providers it starts, the state it writes — to standard
// error or appended to TF_LOG_PATH, beside the provider plugins' logs,
// never with a variable's value.
func TestCoreLog(t *testing.T) {
	mirror := testProviderMirror(t)
	dir := workDir(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
variable "password" {
  type      = string
  sensitive = true
}
resource "terraform_data" "a" {
  input = var.password
}
resource "test_thing" "b" {
  name = "b"
}
`})
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+mirror)
	const secret = "s3cr3t-pa55"
	logPath := filepath.Join(t.TempDir(), "rig.log")
	if err := os.WriteFile(logPath, []byte("kept\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_LOG", "trace")
	t.Setenv("TF_LOG_PATH", logPath)
	t.Setenv("TF_VAR_password", secret+"-env")
	r := rigOK(t, dir, "apply", "-no-color", "-auto-approve", "-var", "password="+secret)
	if strings.Contains(r.stderr, "[INFO]") {
		t.Errorf("with TF_LOG_PATH the log went to stderr:\n%s", r.stderr)
	}
	log := readFile(t, filepath.Dir(logPath), filepath.Base(logPath))
	if !strings.HasPrefix(log, "kept\n") {
		t.Errorf("the log file was not appended to")
	}
	checkContains(t, "the log", log,
		"[INFO]  rig version: 0.1.0",
		`[INFO]  CLI args: args=["-chdir=`,
		`"apply", "-no-color", "-auto-approve", "-var", "password=(redacted)"]`,
		"[INFO]  configuration loaded: modules=1 files=1 resources=2",
		"[INFO]  provider started: provider=registry.terraform.io/rig/test",
		"[INFO]  provider started: provider=terraform.io/builtin/terraform",
		"[INFO]  plan made: mode=normal changes=2",
		"[INFO]  operation graph built: operations=2 edges=0",
		"[INFO]  operation started: address=terraform_data.a action=create",
		"[INFO]  operation complete: address=test_thing.b action=create",
		"[INFO]  state written: path=terraform.tfstate",
		"[INFO]  rig finished: exit_code=0",
	)
	if strings.Contains(log, secret) {
		t.Errorf("the log holds the variable's value:\n%s", log)
	}

	// JSON lines on stderr.
	t.Setenv("TF_LOG", "json")
	t.Setenv("TF_LOG_PATH", "")
	r = rigOK(t, dir, "plan", "-no-color")
	var entries int
	for _, line := range strings.Split(r.stderr, "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		if !strings.Contains(line, `"@level":`) || !strings.Contains(line, `"@message":`) || !strings.Contains(line, `"@timestamp":`) {
			t.Errorf("not a JSON log entry: %s", line)
		}
		entries++
	}
	if entries < 5 || !strings.Contains(r.stderr, `"@message":"plan made"`) {
		t.Errorf("TF_LOG=json wrote %d entries:\n%s", entries, r.stderr)
	}

	// TF_LOG_CORE alone logs rig, at its level; TF_LOG_PROVIDER alone does not.
	t.Setenv("TF_LOG", "")
	t.Setenv("TF_LOG_CORE", "warn")
	if r = rigOK(t, dir, "plan", "-no-color"); strings.Contains(r.stderr, "[INFO]") {
		t.Errorf("TF_LOG_CORE=warn logs INFO:\n%s", r.stderr)
	}
	t.Setenv("TF_LOG_CORE", "info")
	if r = rigOK(t, dir, "plan", "-no-color"); !strings.Contains(r.stderr, "[INFO]  plan made") {
		t.Errorf("TF_LOG_CORE=info:\n%s", r.stderr)
	}
	t.Setenv("TF_LOG_CORE", "")
	t.Setenv("TF_LOG_PROVIDER", "info")
	if r = rigOK(t, dir, "plan", "-no-color"); strings.Contains(r.stderr, "plan made") {
		t.Errorf("TF_LOG_PROVIDER logs rig's own entries:\n%s", r.stderr)
	}
	t.Setenv("TF_LOG_PROVIDER", "")
	// An unknown level is a warning, and TRACE.
	t.Setenv("TF_LOG", "verbose")
	r = rigOK(t, dir, "validate", "-no-color")
	if !strings.Contains(r.stderr, `[WARN] Invalid log level: "VERBOSE". Defaulting to level: TRACE.`) || !strings.Contains(r.stderr, "[INFO]  rig version") {
		t.Errorf("TF_LOG=verbose:\n%s", r.stderr)
	}
}
