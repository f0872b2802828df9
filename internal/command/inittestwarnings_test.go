package command

import (
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
