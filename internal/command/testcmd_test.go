package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/bench/tofutest"
	"github.com/rig-iac/rig/internal/command/commandtest"
	"github.com/rig-iac/rig/internal/getmodules"
)

// Each fixture of testdata/testfixtures gives, run by run, the outcome
// OpenTofu 1.12 gave it (recorded in its outcomes.txt by
// bench/cmd/testcompare -record), and the same exit status. The fixtures
// run against the plugin that serves the schema of OpenTofu's test-command
// fixtures (test_resource, test_data_source), as a development override.
func TestTestFixturesMatchOpenTofu(t *testing.T) {
	bin := buildRig(t)
	opts := tofutest.Options{ProviderDir: commandtest.FixtureProvider(t), Init: true}
	compareTestFixtures(t, bin, filepath.Join("testdata", "testfixtures", "*"), 10, opts, func(t *testing.T, _ string, recorded []byte, got *tofutest.Result) {
		wantExit := regexp.MustCompile(`exit (\d+)`).FindStringSubmatch(string(recorded))
		if wantExit == nil || wantExit[1] != strconv.Itoa(got.ExitCode) {
			t.Errorf("exit status %d, OpenTofu's was %s", got.ExitCode, wantExit[1])
		}
	})
}

// elapsedSuffix is the time the human report adds to each line.
var elapsedSuffix = regexp.MustCompile(`\(\d+\.\d\ds\)`)

func normalizeTest(s string) string {
	return elapsedSuffix.ReplaceAllString(normalize(s), "(T)")
}

const testedModule = `
variable "name" {
  type    = string
  default = "first"
}
variable "secret" {
  type      = string
  default   = "s3cret"
  sensitive = true
}
resource "terraform_data" "a" {
  input = var.name
}
output "name" {
  value = terraform_data.a.output
}
output "secret" {
  value     = var.secret
  sensitive = true
}
`

const testedFile = `
run "creates" {
  assert {
    condition     = output.name == "first"
    error_message = "name"
  }
}
run "fails" {
  variables {
    name = "second"
  }
  assert {
    condition     = output.name == "first"
    error_message = "the name is now ${output.name}"
  }
  assert {
    condition     = output.secret == "guess"
    error_message = "wrong secret"
  }
}
run "plans" {
  command = plan
  variables {
    name = "third"
  }
  assert {
    condition     = terraform_data.a.input == "third"
    error_message = "planned input"
  }
}
`

// The human report: each file's status, its runs' statuses with their
// times, the failed assertions with the values of their references (a
// sensitive one hidden), and the conclusion.
func TestTestHumanReport(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": testedModule, "tests/main.tftest.hcl": testedFile})
	r := rig(t, dir, "test", "-no-color")
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	golden(t, "test/human", elapsedSuffix.ReplaceAllString(r.stdout+"---- stderr\n"+r.stderr, "(T)"))
	if strings.Contains(r.stdout+r.stderr, "s3cret") {
		t.Error("the report shows a sensitive value")
	}
}

// -json writes the messages OpenTofu writes; -junit-xml the JUnit XML file
// Terraform writes; -verbose adds each run's plan or state.
func TestTestMachineReports(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": testedModule, "tests/main.tftest.hcl": testedFile})
	r := rig(t, dir, "test", "-json", "-junit-xml=report.xml")
	if r.code != 1 {
		t.Errorf("exit %d, want 1\n%s", r.code, r.stderr)
	}
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var msg struct{ Type string }
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("not a JSON message: %q", line)
		}
		types = append(types, msg.Type)
	}
	want := "version test_abstract test_file test_run test_run diagnostic diagnostic test_run test_summary"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("message types:\n got %s\nwant %s", got, want)
	}
	xml, err := os.ReadFile(filepath.Join(dir, "report.xml"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "test/junit", regexp.MustCompile(`time="[^"]*" timestamp="[^"]*"`).ReplaceAllString(string(xml), `time="T" timestamp="T"`))
	if strings.Contains(r.stdout+string(xml), "s3cret") {
		t.Error("a machine report shows a sensitive value")
	}

	r = rig(t, dir, "test", "-no-color", "-verbose", "-filter=tests/main.tftest.hcl")
	golden(t, "test/verbose", normalizeTest(r.stdout))
}

// A cleanup that cannot destroy an object says so, lists it by address and
// id, and saves the state it left in errored_test.tfstate (mode 0600).
func TestTestCleanupFailure(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
resource "terraform_data" "stuck" {
  provisioner "local-exec" {
    when    = destroy
    command = "exit 3"
  }
}
resource "terraform_data" "fine" {}
`, "main.tftest.hcl": `run "creates" {}`})
	r := rig(t, dir, "test", "-no-color")
	if r.code != 0 {
		t.Errorf("exit %d: a run that passes passes however its cleanup goes\n%s", r.code, r.stderr)
	}
	if !strings.Contains(strings.Join(strings.Fields(r.stderr), " "), "rig left the following resources in state after executing main.tftest.hcl/creates") ||
		!regexp.MustCompile(`  - terraform_data\.stuck \[id=id-\d+\]`).MatchString(r.stderr) || strings.Contains(r.stderr, "terraform_data.fine [") {
		t.Errorf("the cleanup does not say what it left:\n%s", r.stderr)
	}
	fi, err := os.Stat(filepath.Join(dir, "errored_test.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("errored_test.tfstate has mode %v", fi.Mode().Perm())
	}
	b, _ := os.ReadFile(filepath.Join(dir, "errored_test.tfstate"))
	if !strings.Contains(string(b), `"name": "stuck"`) || strings.Contains(string(b), `"name": "fine"`) {
		t.Errorf("errored_test.tfstate:\n%s", b)
	}
}

// rig validate checks the test files too, as OpenTofu's validate does:
// what expect_failures may name; -no-tests leaves them out. What the
// assertions refer to is rig test's to report, as it runs them.
func TestValidateTestFiles(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": testedModule, "tests/broken.tftest.hcl": `
run "one" {
  assert {
    condition     = terraform_data.missing.output == "x"
    error_message = "refers to nothing"
  }
  expect_failures = [local.nope]
}
run "two" {
  variables {
    name = run.later.name
  }
}
`})
	r := rig(t, dir, "validate", "-no-color")
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	checkContains(t, "validate stderr", r.stderr, "Error: Invalid `expect_failures` reference")
	for _, unwanted := range []string{"Reference to undeclared resource", "Reference to unknown run block"} {
		if strings.Contains(r.stderr, unwanted) {
			t.Errorf("validate reports %q, which OpenTofu's validate leaves to test:\n%s", unwanted, r.stderr)
		}
	}
	if r := rig(t, dir, "validate", "-no-tests", "-no-color"); r.code != 0 {
		t.Errorf("-no-tests: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "validate", "-test-directory=elsewhere", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, "Test directory does not exist") {
		t.Errorf("-test-directory=elsewhere: exit %d\n%s", r.code, r.stderr)
	}

	writeFile(t, filepath.Join(dir, "tests"), "broken.tftest.hcl", `
run "one" {
  command = plan
  assert {
    condition     = terraform_data.missing.output == "x"
    error_message = "refers to nothing"
  }
}
`)
	if r := rig(t, dir, "validate", "-no-color"); r.code != 0 {
		t.Errorf("validate of an assertion referring to nothing: exit %d, want 0\n%s", r.code, r.stderr)
	}
	r = rig(t, dir, "test", "-no-color")
	if r.code != 1 {
		t.Errorf("test: exit %d, want 1", r.code)
	}
	checkContains(t, "test stderr", r.stderr, "Error: Reference to undeclared resource", "on tests/broken.tftest.hcl line 5, in run \"one\":")
}

// init installs the modules run blocks name, recorded under the key
// OpenTofu and Terraform use, and rig test runs them.
func TestInitInstallsTestModules(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf":       testedModule,
		"setup/main.tf": "resource \"terraform_data\" \"s\" {}\noutput \"id\" {\n  value = terraform_data.s.id\n}\n",
		"tests/a.tftest.hcl": `run "setup" {
  module {
    source = "./setup"
  }
}
run "main" {
  variables {
    name = run.setup.id
  }
  assert {
    condition     = output.name == run.setup.id
    error_message = "run outputs"
  }
}`})
	if r := rig(t, dir, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: exit %d\n%s", r.code, r.stderr)
	}
	m, err := getmodules.ReadManifest(filepath.Join(dir, getmodules.ModulesDir))
	if err != nil {
		t.Fatal(err)
	}
	rec, ok := m.Record("test.tests.a.setup")
	if !ok || rec.Source != "./setup" || rec.Dir != "setup" {
		t.Errorf("manifest: %+v", m.Records)
	}
	if r := rig(t, dir, "test", "-no-color"); r.code != 0 {
		t.Errorf("test: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// With the real random and local plugins, and with mocks of them, rig
// gives each fixture of testdata/testrealfixtures the outcomes, run by run,
// and the JUnit XML outline Terraform 1.11 gave it (recorded in
// outcomes.txt and junit.txt by bench/cmd/testcompare -record -junit), and
// destroys every file the runs wrote.
func TestTestRealProvidersMatchTerraform(t *testing.T) {
	mirror := realMirror(t, "random", "local")
	bin := buildRig(t)
	opts := tofutest.Options{Mirror: mirror, Init: true, JUnit: true, Keep: true}
	compareTestFixtures(t, bin, filepath.Join("testdata", "testrealfixtures", "*"), 3, opts, func(t *testing.T, fixture string, _ []byte, got *tofutest.Result) {
		wantShape, err := os.ReadFile(filepath.Join(fixture, "junit.txt"))
		if err != nil {
			t.Fatal(err)
		}
		shape, err := tofutest.JUnitShape(got.JUnit)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(wantShape), shape); diff != "" {
			t.Errorf("JUnit XML outline (-terraform +rig):\n%s", diff)
		}
		left, _ := filepath.Glob(filepath.Join(got.Dir, "out", "*"))
		left2, _ := filepath.Glob(filepath.Join(got.Dir, "*", "out", "*"))
		if len(left)+len(left2) > 0 {
			t.Errorf("the cleanup left files: %v %v", left, left2)
		}
	})
}

// A run block may run a registry module: init installs it (and the
// modules it calls) under the run's manifest key, and test runs it.
func TestTestRegistryModule(t *testing.T) {
	reg := newModuleRegistry(t, "1.0.0", "1.1.0")
	dir := workDir(t, map[string]string{
		"main.tf": "resource \"terraform_data\" \"main\" {}\n",
		"main.tftest.hcl": `run "net" {
  module {
    source  = "` + reg.host() + `/acme/net/aws"
    version = "~> 1.0"
  }
  variables {
    name = "edge"
  }
  assert {
    condition     = output.id == "edge-tagged"
    error_message = "got ${output.id}"
  }
}
run "main" {}
`})
	if r := rig(t, dir, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	m, err := getmodules.ReadManifest(filepath.Join(dir, getmodules.ModulesDir))
	if err != nil {
		t.Fatal(err)
	}
	rec, ok := m.Record("test.main.net")
	if !ok || rec.Version != "1.1.0" || rec.Source != reg.host()+"/acme/net/aws" {
		t.Errorf("manifest: %+v", m.Records)
	}
	if _, ok := m.Record("test.main.net.tag"); !ok {
		t.Errorf("the registry module's own module is not installed: %+v", m.Records)
	}
	if r := rig(t, dir, "test", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, `run "net"... pass`) {
		t.Errorf("test: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
