package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInitShowsTestFileProviderWarnings: init shows, as OpenTofu's does, the
// warning about a version constraint in a test file's provider block,
// with its source line, but not the warnings OpenTofu gives only when the
// tests are validated or run (two runs of one name).
func TestInitShowsTestFileProviderWarnings(t *testing.T) {
	dir := workDir(t, map[string]string{
		"main.tf": "resource \"terraform_data\" \"a\" {}\n",
		"tests/a.tftest.hcl": `provider "terraform" {
  version = "~> 1.0"
}

run "one" {
  command = plan
}

run "one" {
  command = plan
}
`,
	})
	r := rig(t, dir, "init", "-no-color")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, "init", r.stdout, "Warning: Version constraints inside provider configuration blocks are deprecated",
		"on tests/a.tftest.hcl line 2, in provider \"terraform\":", `   2:   version = "~> 1.0"`)
	if strings.Contains(r.stdout+r.stderr, "Duplicate \"run\" block names") {
		t.Errorf("init shows the duplicate run warning:\n%s", r.stdout)
	}
}

// TestInitInstallsTestProviders: init installs, as OpenTofu's does, the
// providers only the tests need (here those of a run's module), and locks
// them, so that rig test can run.
func TestInitInstallsTestProviders(t *testing.T) {
	mirror := testProviderMirror(t)
	cli := filepath.Join(t.TempDir(), "rig.tfrc")
	writeFile(t, filepath.Dir(cli), filepath.Base(cli), fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	t.Setenv("TF_CLI_CONFIG_FILE", cli)
	dir := workDir(t, map[string]string{
		"main.tf": "resource \"terraform_data\" \"a\" {}\n",
		"setup/main.tf": `terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
resource "test_thing" "s" {
  name = "s"
}
output "name" {
  value = test_thing.s.name
}
`,
		"tests/a.tftest.hcl": `run "setup" {
  module {
    source = "./setup"
  }
  assert {
    condition     = output.name == "s"
    error_message = "setup's output"
  }
}
`,
	})
	r := rig(t, dir, "init", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "- Installed rig/test v0.0.1") {
		t.Fatalf("init: exit %d, want rig/test installed\n%s%s", r.code, r.stdout, r.stderr)
	}
	if lock, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl")); err != nil || !strings.Contains(string(lock), `provider "registry.terraform.io/rig/test"`) {
		t.Errorf("lock file: %v\n%s", err, lock)
	}
	if r := rig(t, dir, "test", "-no-color"); r.code != 0 {
		t.Errorf("test: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
