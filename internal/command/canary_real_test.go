package command

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const realCanaryConfig = `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
    local  = { source = "hashicorp/local" }
  }
}
resource "random_password" "p" {
  length = 24
}
resource "local_file" "f" {
  filename = "${path.module}/out.txt"
  content  = "pw=${random_password.p.result}"
}
data "local_sensitive_file" "r" {
  filename = local_file.f.filename
}
resource "local_file" "copy" {
  filename = "${path.module}/copy.txt"
  content  = "copy of ${data.local_sensitive_file.r.content}"
}
output "pw" {
  value     = random_password.p.result
  sensitive = true
}
`

// newRealCanaryEnv is a canary environment whose working directory holds
// config as main.tf and whose CLI configuration installs providers, real
// plugins, from the local mirror (realMirror, which skips the test
// without them).
func newRealCanaryEnv(t *testing.T, config string, providers ...string) *canaryEnv {
	t.Helper()
	mirror := realMirror(t, providers...)
	e := newCanaryEnv(t, buildRig(t))
	e.dir = workDir(t, map[string]string{"main.tf": config})
	cliDir := t.TempDir()
	writeFile(t, cliDir, "cli.tfrc", `provider_installation {
  filesystem_mirror {
    path = "`+mirror+`"
  }
}
`)
	e.env = append(slices.DeleteFunc(e.env, func(kv string) bool { return strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=") }),
		"TF_CLI_CONFIG_FILE="+filepath.Join(cliDir, "cli.tfrc"))
	return e
}

// TestCanaryRealProviders is the canary run with the real random and local
// plugins: random_password's result (sensitive in the provider's schema)
// feeds local_file's content, a local_sensitive_file data source reads it
// back and another file copies that. With TF_LOG=trace, no command but
// the JSON views and output -raw prints a password, whichever generation
// of it (every -replace makes a new one); the dependents' state records
// content as sensitive; and Terraform (when installed) shows rig's state
// with the same values hidden and records the same sensitive paths.
func TestCanaryRealProviders(t *testing.T) {
	e := newRealCanaryEnv(t, realCanaryConfig, "random", "local")

	steps := []canaryStep{
		{name: "init", args: []string{"init"}},
		{name: "plan", args: []string{"plan"}},
		{name: "apply", args: []string{"apply", "-auto-approve"}},
		{name: "show", args: []string{"show"}},
		{name: "show -json", args: []string{"show", "-json"}, shows: true},
		{name: "state show password", args: []string{"state", "show", "random_password.p"}},
		{name: "state show file", args: []string{"state", "show", "local_file.f"}},
		{name: "state show data source", args: []string{"state", "show", "data.local_sensitive_file.r"}},
		{name: "state show copy", args: []string{"state", "show", "local_file.copy"}},
		{name: "console", args: []string{"console"}, stdin: "random_password.p.result\nlocal_file.f.content\nlocal_file.copy\n"},
		{name: "output", args: []string{"output"}},
		{name: "output -raw", args: []string{"output", "-raw", "pw"}, shows: true},
		{name: "plan -replace", args: []string{"plan", "-replace=random_password.p"}},
		{name: "plan -replace -out", args: []string{"plan", "-replace=random_password.p", "-out=r.plan"}},
		{name: "show PLANFILE", args: []string{"show", "r.plan"}},
		{name: "apply PLANFILE", args: []string{"apply", "r.plan"}},
		{name: "refresh", args: []string{"refresh"}},
		{name: "apply -json -replace", args: []string{"apply", "-json", "-auto-approve", "-replace=random_password.p"}},
		{name: "plan -replace after", args: []string{"plan", "-replace=random_password.p"}},
		{name: "destroy", args: []string{"destroy", "-auto-approve"}},
	}
	var passwords []string
	outputs := make([]string, len(steps))
	for i, s := range steps {
		r := e.run(s.args, s.stdin)
		outputs[i] = r.stdout + r.stderr
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", s.name, r.code, outputs[i])
		}
		if pw := realPassword(t, e.file("terraform.tfstate")); pw != "" && !slices.Contains(passwords, pw) {
			passwords = append(passwords, pw)
		}
		if s.name == "apply" {
			paths := sensitiveAttributesByAddress(t, e.file("terraform.tfstate"))
			for addr, want := range map[string]string{
				"local_file.f":                `[[{"type":"get_attr","value":"content"}],[{"type":"get_attr","value":"sensitive_content"}]]`,
				"local_file.copy":             `[[{"type":"get_attr","value":"content"}],[{"type":"get_attr","value":"sensitive_content"}]]`,
				"random_password.p":           `[[{"type":"get_attr","value":"bcrypt_hash"}],[{"type":"get_attr","value":"result"}]]`,
				"data.local_sensitive_file.r": `[[{"type":"get_attr","value":"content"}],[{"type":"get_attr","value":"content_base64"}]]`,
			} {
				if paths[addr] != want {
					t.Errorf("%s: sensitive_attributes\n got %s\nwant %s", addr, paths[addr], want)
				}
			}
			if tf, err := exec.LookPath("terraform"); err == nil {
				checkTerraformOnRealState(t, e, tf, passwords[0])
			}
		}
	}
	if len(passwords) != 3 {
		t.Fatalf("saw %d passwords, want one per create (3)", len(passwords))
	}
	for i, s := range steps {
		printed := slices.ContainsFunc(passwords, func(pw string) bool {
			quoted, _ := json.Marshal(pw) // as JSON views write it: <, > and & escaped
			return strings.Contains(outputs[i], pw) || strings.Contains(outputs[i], strings.Trim(string(quoted), `"`))
		})
		switch {
		case printed && !s.shows:
			t.Errorf("%s printed a password:\n%s", s.name, outputs[i])
		case !printed && s.shows:
			t.Errorf("%s does not print the password it should: the canary is not in play", s.name)
		}
	}
}

// realPassword returns random_password.p's result recorded in a state, ""
// when there is none.
func realPassword(t *testing.T, raw string) string {
	t.Helper()
	if raw == "" {
		return ""
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate"), []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	s := readRealState(t, dir)
	for _, r := range s.Resources {
		if r.Type == "random_password" && len(r.Instances) == 1 {
			return attr(t, r.Instances[0], "result")
		}
	}
	return ""
}

// checkTerraformOnRealState runs Terraform's show and state show on the
// state rig wrote (in a copy of the directory, initialised by Terraform):
// the password is hidden there too.
func checkTerraformOnRealState(t *testing.T, e *canaryEnv, tf, password string) {
	t.Helper()
	dir := workDir(t, map[string]string{"main.tf": realCanaryConfig, "terraform.tfstate": e.file("terraform.tfstate"),
		".terraform.lock.hcl": e.file(".terraform.lock.hcl")})
	te := &canaryEnv{t: t, bin: tf, dir: dir, env: e.env}
	if r := te.run([]string{"init"}, ""); r.code != 0 {
		t.Fatalf("terraform init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, args := range [][]string{{"show"}, {"state", "show", "local_file.f"}, {"state", "show", "local_file.copy"}, {"plan", "-replace=random_password.p"}} {
		r := te.run(args, "")
		if r.code != 0 {
			t.Errorf("terraform %v on rig's state: exit %d\n%s", args, r.code, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, password) {
			t.Errorf("terraform %v prints the password from rig's state:\n%s", args, r.stdout)
		}
	}
}
