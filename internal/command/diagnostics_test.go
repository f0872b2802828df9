package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnsupportedTypeSuggestions: a resource or data source type its
// provider lacks is an error at the type, suggesting the nearest type of
// the provider's schema, or the other kind of block when the provider has
// the type as that, in OpenTofu's words.
func TestUnsupportedTypeSuggestions(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
resource "terraform_dat" "typo" {}

data "terraform_remote_stat" "typo" {
  backend = "local"
}

resource "terraform_remote_state" "wrong_block" {}

resource "terraform_nothing_like_it" "far" {}
`})
	for _, cmd := range []string{"validate", "plan"} {
		r := rig(t, dir, cmd, "-no-color")
		for _, want := range []string{
			"Error: Invalid resource type\n\n  on main.tf line 2, in resource \"terraform_dat\" \"typo\":",
			"The provider terraform.io/builtin/terraform does not support resource type\n\"terraform_dat\". Did you mean \"terraform_data\"?",
			"Error: Invalid data source\n\n  on main.tf line 4, in data \"terraform_remote_stat\" \"typo\":",
			"The provider terraform.io/builtin/terraform does not support data source\n\"terraform_remote_stat\". Did you mean \"terraform_remote_state\"?",
			"\"terraform_remote_state\".\n\nDid you intend to use a block of type \"data\" \"terraform_remote_state\"? If so,\ndeclare this using a block of type \"data\" instead of one of type \"resource\".",
			"The provider terraform.io/builtin/terraform does not support resource type\n\"terraform_nothing_like_it\".\n",
		} {
			if r.code != 1 || !strings.Contains(r.stderr, want) {
				t.Errorf("%s: exit %d, want %q in:\n%s", cmd, r.code, want, r.stderr)
			}
		}
	}
}

// TestLockFileHint: a provider the lock file does not select is to be
// installed with "rig init" when there is no lock file yet, and with
// "rig init -upgrade" when the lock file selects others.
func TestLockFileHint(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    null = { source = "hashicorp/null" }
  }
}
resource "null_resource" "a" {}
`})
	r := rig(t, dir, "plan", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Inconsistent dependency lock file") ||
		!strings.Contains(r.stderr, "To make the initial dependency selections that will initialize the dependency\nlock file, run:\n  rig init\n") ||
		strings.Contains(r.stderr, "-upgrade") {
		t.Errorf("without a lock file: exit %d\n%s", r.code, r.stderr)
	}
	// Once init has written a lock file for other providers, a new one
	// is a changed configuration.
	writeFile(t, dir, "main.tf", `
terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
resource "test_thing" "a" {
  name = "a"
}
`)
	rigOK(t, dir, "init", "-no-color", "-plugin-dir="+testProviderMirror(t))
	writeFile(t, dir, "more.tf", `resource "null_resource" "b" {}`)
	r = rig(t, dir, "plan", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "To update the locked dependency selections to match a changed configuration,\nrun:\n  rig init -upgrade") {
		t.Errorf("with a lock file: exit %d\n%s", r.code, r.stderr)
	}
}

// TestTrailingNoColor: -no-color anywhere on the command line applies to
// everything printed, the errors about flags before it included.
func TestTrailingNoColor(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})
	for _, args := range [][]string{
		{"plan", "-bogus", "-no-color"},
		{"plan", "-parallelism=x", "-no-color"},
		{"apply", "-auto-aprove", "-no-color"},
		{"state", "list", "-bogus", "-no-color"},
		{"plan", "extra", "-no-color"},
	} {
		r := rig(t, dir, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "Error: ") || strings.Contains(r.stderr+r.stdout, "\x1b[") {
			t.Errorf("%v: exit %d\n%q", args, r.code, r.stderr)
		}
	}
	// Without it, the same error is in color.
	if r := rig(t, dir, "plan", "-bogus"); !strings.Contains(r.stderr, "\x1b[") {
		t.Errorf("plan -bogus is not in color:\n%q", r.stderr)
	}
}

// TestCLIConfigFileProblems: a TF_CLI_CONFIG_FILE naming a missing file or
// a directory is reported for every command, before it runs, as Terraform
// and OpenTofu report it; the command then runs without it.
func TestCLIConfigFileProblems(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `output "x" { value = 1 }`})
	rigOK(t, dir, "apply", "-auto-approve", "-no-color")
	missing := filepath.Join(t.TempDir(), "missing.tfrc")
	for _, tt := range []struct{ path, want string }{
		{missing, "The CLI configuration file at \"" + missing + "\" does not exist."},
		{dir, "is a directory, not a file; rig goes on without a CLI configuration."},
	} {
		t.Setenv("TF_CLI_CONFIG_FILE", tt.path)
		for _, args := range [][]string{{"version", "-no-color"}, {"state", "list", "-no-color"}, {"output", "-no-color"}, {"plan", "-no-color"}} {
			r := rig(t, dir, args...)
			if r.code != 0 || !strings.HasPrefix(r.stderr, "There are some problems with the CLI configuration:\n") ||
				!strings.Contains(r.stdout, "Warning: Unable to open CLI configuration file") || !strings.Contains(flat(r.stdout), tt.want) ||
				strings.Count(r.stdout, "Unable to open CLI configuration file") != 1 {
				t.Errorf("%s, %v: exit %d\n%s", tt.path, args, r.code, r.stderr)
			}
		}
	}
	// A relative TF_CLI_CONFIG_FILE is relative to where rig was started,
	// not to the -chdir directory.
	cfgDir := t.TempDir()
	writeFile(t, cfgDir, "rig.tfrc", "")
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, filepath.Join(cfgDir, "rig.tfrc"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_CLI_CONFIG_FILE", rel)
	if r := rig(t, dir, "state", "list", "-no-color"); r.code != 0 || r.stderr != "" {
		t.Errorf("relative TF_CLI_CONFIG_FILE: exit %d\n%s", r.code, r.stderr)
	}
}

// flat is s with every run of white space one space, for text rendering
// wraps.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestProviderPanicShown: a provider plugin that panics fails the
// operation with the panic's message, and rig ends by showing the
// plugin's panic output as Terraform does.
func TestProviderPanicShown(t *testing.T) {
	pluginDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(pluginDir, "terraform-provider-test"), testProviderExecutable(t), 0o755); err != nil {
		t.Fatal(err)
	}
	cliConfig := filepath.Join(t.TempDir(), "rig.tfrc")
	writeFile(t, filepath.Dir(cliConfig), filepath.Base(cliConfig), `
provider_installation {
  dev_overrides {
    "rig/test" = "`+pluginDir+`"
  }
}
`)
	t.Setenv("TF_CLI_CONFIG_FILE", cliConfig)
	dir := workDir(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    test = { source = "rig/test" }
  }
}
data "test_echo" "p" {
  input = "panic"
}
`})
	r := rig(t, dir, "plan", "-no-color")
	for _, want := range []string{
		"Error: Plugin did not respond",
		"The plugin encountered an error, and failed to respond to the ReadDataSource\ncall of provider rig/test. It crashed with:\n\npanic: test provider: asked to panic while reading test_echo\n",
		"\nStack trace from the terraform-provider-test plugin:\n\npanic: test provider: asked to panic while reading test_echo\n\ngoroutine ",
		"server.go:",
		"\nError: The terraform-provider-test plugin crashed!\n",
	} {
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("plan: exit %d, want %q in:\n%s", r.code, want, r.stderr)
		}
	}
	// With -json the diagnostic is a message; the trace still ends stderr.
	r = rig(t, dir, "plan", "-json")
	if r.code != 1 || !strings.Contains(r.stdout, `"summary":"Plugin did not respond"`) || !strings.Contains(r.stdout, `panic: test provider: asked to panic while reading test_echo`) ||
		!strings.Contains(r.stderr, "Stack trace from the terraform-provider-test plugin:") {
		t.Errorf("plan -json: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// A later command that succeeds shows no old crash.
	writeFile(t, dir, "main.tf", `resource "terraform_data" "a" {}`)
	if r = rig(t, dir, "plan", "-no-color"); r.code != 0 || strings.Contains(r.stderr, "crashed") {
		t.Errorf("plan after the crash: exit %d\n%s", r.code, r.stderr)
	}
}
