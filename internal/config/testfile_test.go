package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
)

const fullTestFile = `
test {
  parallel = true
}
variables {
  region = "eu"
}
variable "token" {
  type = string
}
provider "aws" {
  region = var.region
}
mock_provider "aws" {
  alias = "fake"
  override_during = plan
  mock_resource "aws_s3_bucket" {
    defaults = { arn = "arn:fake" }
  }
  override_data {
    target = data.aws_caller_identity.me
    values = { account_id = "123" }
  }
}
override_module {
  target  = module.net
  outputs = { vpc_id = "vpc-1" }
}
run "setup" {
  command = plan
  module {
    source  = "./setup"
  }
  plan_options {
    mode    = refresh-only
    target  = [aws_s3_bucket.b]
  }
  parallel = false
}
run "main" {
  state_key    = "other"
  skip_cleanup = true
  providers = {
    aws = aws.fake
  }
  variables {
    name = run.setup.name
  }
  assert {
    condition     = aws_s3_bucket.b.arn == "arn:fake"
    error_message = "arn"
  }
  expect_failures = [var.name, aws_s3_bucket.b[0]]
  override_resource {
    target = aws_s3_bucket.b
    values = { id = "b" }
    override_during = apply
  }
}
`

func TestParseTestFile(t *testing.T) {
	tf, ds := ParseTestFile("tests/main.tftest.hcl", "tests/main.tftest.hcl", []byte(fullTestFile))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if !tf.Parallel || len(tf.Variables) != 1 || tf.VariableDecls["token"] == nil || tf.Providers["aws"] == nil {
		t.Errorf("file level: parallel %v, variables %v, decls %v, providers %v", tf.Parallel, tf.Variables, tf.VariableDecls, tf.Providers)
	}
	mock := tf.Mocks["aws.fake"]
	if mock == nil || mock.During != DuringPlan || len(mock.Resources) != 1 || mock.Resources[0].Defaults["arn"].AsString() != "arn:fake" ||
		len(mock.Overrides) != 1 || mock.Overrides[0].Kind != OverrideData || mock.Overrides[0].During != DuringPlan {
		t.Errorf("mock_provider: %+v", mock)
	}
	if len(tf.Overrides) != 1 || tf.Overrides[0].Kind != OverrideModule || tf.Overrides[0].Target.Module != addrs.ModuleInstance("module.net") {
		t.Errorf("override_module: %+v", tf.Overrides)
	}
	type runSummary struct {
		Name, Command, StateKey, Module     string
		Index                               int
		RefreshOnly, Parallel, SkipCleanup  bool
		Targets, Asserts, Expect, Overrides int
		Providers                           []string
	}
	var got []runSummary
	for _, r := range tf.Runs {
		s := runSummary{Name: r.Name, Index: r.Index, Command: r.Command.String(), StateKey: r.StateKey, RefreshOnly: r.RefreshOnly,
			Parallel: r.Parallel, SkipCleanup: r.SkipCleanup, Targets: len(r.Target), Asserts: len(r.Asserts),
			Expect: len(r.ExpectFailures), Overrides: len(r.Overrides)}
		if r.Module != nil {
			s.Module = r.Module.Source
		}
		for _, p := range r.Providers {
			s.Providers = append(s.Providers, p.InChild.String()+"="+p.InParent.String())
		}
		got = append(got, s)
	}
	want := []runSummary{
		{Name: "setup", Index: 0, Command: "plan", StateKey: "./setup", Module: "./setup", RefreshOnly: true, Targets: 1},
		{Name: "main", Index: 1, Command: "apply", StateKey: "other", Parallel: true, SkipCleanup: true, Asserts: 1, Expect: 2, Overrides: 1,
			Providers: []string{"aws=aws.fake"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	if o := tf.Runs[1].Overrides[0]; o.During != DuringApply || !o.DuringSet || o.Values["id"].AsString() != "b" {
		t.Errorf("override_resource: %+v", o)
	}
	if ds := tf.Runs[1].CheckExpectFailures(); len(ds) != 0 {
		t.Errorf("expect_failures: %v", ds)
	}
}

// Problems are reported at the file and line where they are, with
// OpenTofu's and Terraform's wording.
func TestParseTestFileErrors(t *testing.T) {
	cases := []struct {
		name, src, want string
		warning         bool
	}{
		{"bad command", `run "a" { command = destroy }`, `Invalid "command" keyword`, false},
		{"bad run name", `run "1a" {}`, "Invalid run block name", false},
		{"two plan_options", `run "a" {
  plan_options {}
  plan_options {}
}`, `Multiple "plan_options" blocks`, false},
		{"refresh-only without refresh", `run "a" {
  plan_options {
    mode    = refresh-only
    refresh = false
  }
}`, "Incompatible plan options", false},
		{"replace a data source", `run "a" {
  plan_options {
    replace = [data.x.y]
  }
}`, "Can only target managed resources for forced replacements.", false},
		{"module without source", `run "a" {
  module {}
}`, `Missing "source" attribute for module block`, false},
		{"backend in a run", `run "a" {
  backend "local" {}
}`, "Backend blocks in run blocks are not supported", false},
		{"two test blocks", "test {}\ntest {}\n", `Multiple "test" blocks`, false},
		{"unknown block", `resource "x" "y" {}`, `Unsupported block type`, false},
		{"duplicate provider", "provider \"aws\" {}\nmock_provider \"aws\" {}\n", "Duplicate provider block", false},
		{"override of a data source as resource", `override_resource {
  target = data.x.y
}`, "Invalid override target", false},
		{"override_ephemeral of a resource", `run "a" {
  override_ephemeral {
    target = x.y
  }
}`, "Invalid override target", false},
		{"duplicate override_ephemeral", `mock_provider "aws" {
  override_ephemeral {
    target = ephemeral.x.y
  }
  override_ephemeral {
    target = ephemeral.x.y
  }
}`, "Duplicate override_ephemeral block", false},
		{"duplicate mock_ephemeral", `mock_provider "aws" {
  mock_ephemeral "aws_x" {}
  mock_ephemeral "aws_x" {}
}`, "Duplicate mock_ephemeral block", false},
		{"duplicate override", `override_resource {
  target = x.y
}
override_resource {
  target = x.y
}`, "Duplicate override_resource block", false},
		{"bad override_during", `mock_provider "aws" {
  override_during = never
}`, "Invalid override_during value", false},
		{"values not an object", `override_resource {
  target = x.y
  values = "v"
}`, "Object expected", false},
		{"duplicate mock_resource", `mock_provider "aws" {
  mock_resource "aws_x" {}
  mock_resource "aws_x" {}
}`, "Duplicate mock_resource block", false},
		{"variable and variables", "variable \"a\" {}\nvariables {\n  a = 1\n}\n", `Duplicate "variable" block names`, false},
		{"duplicate run names", "run \"a\" {}\nrun \"a\" {}\n", `Duplicate "run" block names`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := ParseTestFile("a.tftest.hcl", "a.tftest.hcl", []byte(tc.src))
			found := false
			for _, d := range ds {
				if strings.Contains(d.Summary, tc.want) {
					found = true
					if (d.Severity == 2) != tc.warning {
						t.Errorf("%q: severity %v", d.Summary, d.Severity)
					}
					if d.Subject == nil || d.Subject.Filename != "a.tftest.hcl" {
						t.Errorf("%q has no source range", d.Summary)
					}
				}
			}
			if !found {
				t.Errorf("want %q, got %v", tc.want, ds)
			}
		})
	}
}

// expect_failures may only name checkable objects; the run reports it.
func TestCheckExpectFailures(t *testing.T) {
	tf, ds := ParseTestFile("a.tftest.hcl", "a.tftest.hcl", []byte(`run "a" {
  expect_failures = [local.x, module.m, var.ok, check.c, output.o, data.x.y, x.y["k"]]
}`))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	var got []string
	for _, d := range tf.Runs[0].CheckExpectFailures() {
		got = append(got, strings.SplitN(d.Detail, ".", 3)[0]+"."+strings.SplitN(d.Detail, ".", 3)[1])
	}
	want := []string{"You cannot expect failures from local.x", "You cannot expect failures from module.m"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Test files are found in the module directory and the test directory,
// sorted by name; an OpenTofu test file hides the Terraform one of the same
// name; a missing test directory other than the default is a warning.
func TestLoadTestFiles(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"main.tf":                      "",
		"b.tftest.hcl":                 `run "b" {}`,
		"a.tftest.json":                `{"run": {"a": {}}}`,
		"tests/c.tftest.hcl":           `run "c" {}`,
		"tests/c.tofutest.hcl":         `run "c_tofu" {}`,
		"tests/.hidden.tftest.hcl":     `broken`,
		"tests/sub/deeper.tftest.hcl":  `run "no" {}`,
		"tests/notes.txt":              "",
		"other/elsewhere.tftest.hcl":   `run "e" {}`,
		"other/elsewhere.tofutest.hcl": `run "e_tofu" {}`,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := func(files []*TestFile) string {
		var out []string
		for _, f := range files {
			runs := []string{}
			for _, r := range f.Runs {
				runs = append(runs, r.Name)
			}
			out = append(out, f.Name+":"+strings.Join(runs, ","))
		}
		return strings.Join(out, " ")
	}
	files, ds := LoadTestFiles(dir, DefaultTestDirectory)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if got, want := names(files), "a.tftest.json:a b.tftest.hcl:b tests/c.tofutest.hcl:c_tofu"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	files, _ = LoadTestFiles(dir, "other")
	if got, want := names(files), "a.tftest.json:a b.tftest.hcl:b other/elsewhere.tofutest.hcl:e_tofu"; got != want {
		t.Errorf("-test-directory=other: got %s, want %s", got, want)
	}
	_, ds = LoadTestFiles(dir, "missing")
	if len(ds) != 1 || ds[0].Summary != "Test directory does not exist" || ds.HasErrors() {
		t.Errorf("missing directory: %v", ds)
	}
	if _, ds = LoadTestFiles(dir, "tests/sub"); ds.HasErrors() {
		t.Errorf("nested directory: %v", ds)
	}
}

// A mock_provider's source names a directory of .tfmock.hcl files whose
// blocks add to the block's own (which win).
func TestMockProviderSource(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"main.tftest.hcl": `mock_provider "aws" {
  source = "./testing/aws"
  mock_resource "aws_s3_bucket" {
    defaults = { arn = "own" }
  }
}`,
		"testing/aws/data.tfmock.hcl": `mock_resource "aws_s3_bucket" {
  defaults = { arn = "file" }
}
mock_data "aws_region" {
  defaults = { name = "eu-west-1" }
}
override_resource {
  target = aws_s3_bucket.logs
  values = { id = "logs" }
}`,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, ds := LoadTestFiles(dir, DefaultTestDirectory)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	mp := files[0].Mocks["aws"]
	var got []string
	for _, r := range mp.Resources {
		for k, v := range r.Defaults {
			got = append(got, r.Mode.String()+" "+r.Type+" "+k+"="+v.AsString())
		}
	}
	for _, o := range mp.Overrides {
		got = append(got, "override "+o.Target.String())
	}
	want := []string{"managed aws_s3_bucket arn=own", "data aws_region name=eu-west-1", "override aws_s3_bucket.logs"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, ds := LoadTestFiles(filepath.Join(dir, "testing"), "."); ds.HasErrors() {
		t.Errorf("a directory without test files: %v", ds)
	}
}
