package command

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// TestCIPipeline runs rig as a CI pipeline written for Terraform runs it:
// no terminal, the environment variables such pipelines set
// (TF_IN_AUTOMATION, TF_INPUT=0, TF_CLI_ARGS_plan, TF_DATA_DIR outside the
// checkout, TF_LOG and TF_LOG_PATH, the CLI configuration naming a
// provider mirror) and -input=false, -out and -json on the command line:
// init, plan to a file, apply that file, then a plan that finds nothing
// to do.
func TestCIPipeline(t *testing.T) {
	bin := buildRig(t)
	mirror := testProviderMirror(t)
	cliConfig := filepath.Join(t.TempDir(), "ci.tfrc")
	writeFile(t, filepath.Dir(cliConfig), filepath.Base(cliConfig), `
provider_installation {
  filesystem_mirror {
    path = "`+filepath.ToSlash(mirror)+`"
  }
}
`)
	checkout := workDir(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    test = { source = "rig/test", version = "~> 0.0.1" }
  }
}
variable "env" {
  type = string
}
resource "test_thing" "app" {
  name = "app-${var.env}"
}
resource "terraform_data" "release" {
  input = test_thing.app.id
}
output "app" {
  value = test_thing.app.name
}
`, "ci.auto.tfvars": `env = "ci"`})
	dataDir := filepath.Join(t.TempDir(), "runner", "tf-data")
	logFile := filepath.Join(t.TempDir(), "rig.log")
	env := append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+cliConfig,
		"TF_IN_AUTOMATION=1",
		"TF_INPUT=0",
		"TF_DATA_DIR="+dataDir,
		"TF_CLI_ARGS_plan=-lock-timeout=30s -parallelism=4 -compact-warnings",
		"TF_CLI_ARGS_apply=-lock-timeout=30s -compact-warnings",
		"TF_LOG=info",
		"TF_LOG_PATH="+logFile,
		"NO_COLOR=1",
	)
	run := func(wantCode int, args ...string) (stdout, stderr string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = checkout, env
		cmd.Stdin = strings.NewReader("") // no terminal, nothing to read
		r, err := commandtest.Exec(cmd)
		if err != nil {
			t.Fatal(err)
		}
		if r.Code != wantCode {
			t.Fatalf("rig %s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), r.Code, wantCode, r.Stdout, r.Stderr)
		}
		if strings.Contains(r.Stdout, "Enter a value") {
			t.Fatalf("rig %s prompted:\n%s", strings.Join(args, " "), r.Stdout)
		}
		return r.Stdout, r.Stderr
	}
	jsonMessages := func(stdout string) []map[string]any {
		t.Helper()
		var msgs []map[string]any
		for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("not a JSON message: %q: %v", line, err)
			}
			msgs = append(msgs, m)
		}
		return msgs
	}
	hasType := func(msgs []map[string]any, typ string) bool {
		for _, m := range msgs {
			if m["type"] == typ {
				return true
			}
		}
		return false
	}

	out, _ := run(0, "init", "-input=false")
	if strings.Contains(out, "You may now begin working") || !strings.Contains(out, "- Installed rig/test v0.0.1") {
		t.Errorf("init:\n%s", out)
	}
	out, _ = run(2, "plan", "-input=false", "-out=tfplan", "-detailed-exitcode", "-json")
	msgs := jsonMessages(out)
	if !hasType(msgs, "planned_change") || !hasType(msgs, "change_summary") {
		t.Errorf("plan -json:\n%s", out)
	}
	out, _ = run(0, "apply", "-input=false", "-json", "tfplan")
	msgs = jsonMessages(out)
	if !hasType(msgs, "apply_complete") || !hasType(msgs, "outputs") {
		t.Errorf("apply -json:\n%s", out)
	}
	out, _ = run(0, "plan", "-input=false", "-detailed-exitcode")
	if !strings.Contains(out, "No changes.") || strings.Contains(out, "\x1b[") {
		t.Errorf("second plan:\n%s", out)
	}
	out, _ = run(0, "output", "-raw", "app")
	if out != "app-ci" {
		t.Errorf("output app = %q", out)
	}

	// Everything the working directory keeps is in TF_DATA_DIR.
	for _, f := range []string{"providers/registry.terraform.io/rig/test/0.0.1", "rig-timeline.json"} {
		if _, err := os.Stat(filepath.Join(dataDir, f)); err != nil {
			t.Errorf("TF_DATA_DIR lacks %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(checkout, ".terraform")); !os.IsNotExist(err) {
		t.Errorf("the checkout has a .terraform directory: %v", err)
	}
	// The log holds each command, with TF_CLI_ARGS_plan's words inserted.
	log := readFile(t, filepath.Dir(logFile), filepath.Base(logFile))
	checkContains(t, "the log", log,
		`CLI command args: args=["plan", "-lock-timeout=30s", "-parallelism=4", "-compact-warnings", "-input=false", "-out=tfplan", "-detailed-exitcode", "-json"]`,
		`CLI command args: args=["apply", "-lock-timeout=30s", "-compact-warnings", "-input=false", "-json", "tfplan"]`,
		"operation complete: address=test_thing.app action=create",
		"state written: path=terraform.tfstate",
		// The provider plugin's log, beside rig's, from the plugin client.
		"provider.rig/test",
	)

	// Without -auto-approve and with input disabled, apply says what it needs.
	writeFile(t, checkout, "ci.auto.tfvars", `env = "staging"`)
	_, errOut := run(1, "apply", "-input=false")
	if !strings.Contains(errOut, "Error: Plan file or auto-approve required") {
		t.Errorf("apply without approval:\n%s", errOut)
	}
}
