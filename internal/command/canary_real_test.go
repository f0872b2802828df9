package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// realCanaryConfig names its providers by their full source, so that
// OpenTofu (whose default registry is another) installs the same plugins
// from the mirror.
const realCanaryConfig = `terraform {
  required_providers {
    random = { source = "registry.terraform.io/hashicorp/random" }
    local  = { source = "registry.terraform.io/hashicorp/local" }
  }
}
variable "secret" {
  type      = string
  sensitive = true
  default   = "CanaryVar-real"
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
resource "local_file" "v" {
  filename = "${path.module}/v.txt"
  content  = "v=${var.secret}"
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
// back and another file copies that; a sensitive variable feeds another
// file. With TF_LOG=trace, no command but the JSON views and output -raw
// prints a password, whichever generation of it (every -replace makes a
// new one), or the variable; the dependents' state records content as
// sensitive; and Terraform (when installed) and OpenTofu (RIG_TEST_TOFU)
// show rig's state with the same values hidden and marked.
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
				"local_file.v":                `[[{"type":"get_attr","value":"content"}],[{"type":"get_attr","value":"sensitive_content"}]]`,
				"random_password.p":           `[[{"type":"get_attr","value":"bcrypt_hash"}],[{"type":"get_attr","value":"result"}]]`,
				"data.local_sensitive_file.r": `[[{"type":"get_attr","value":"content"}],[{"type":"get_attr","value":"content_base64"}]]`,
			} {
				if paths[addr] != want {
					t.Errorf("%s: sensitive_attributes\n got %s\nwant %s", addr, paths[addr], want)
				}
			}
			tf, _ := exec.LookPath("terraform")
			for _, bin := range []string{tf, tofuBinary()} {
				if bin != "" {
					checkToolOnRealState(t, e, bin, passwords[0])
				}
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
		case !s.shows && canaryPattern.MatchString(outputs[i]):
			t.Errorf("%s printed the sensitive variable:\n%s", s.name, outputs[i])
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

// checkToolOnRealState runs another tool's (bin: Terraform or OpenTofu)
// show, show -json, state show and plan on the state rig wrote (in a copy
// of the directory, initialised by that tool): the password and the
// sensitive variable are hidden there too, and its JSON marks the same
// attributes sensitive as rig's.
func checkToolOnRealState(t *testing.T, e *canaryEnv, bin, password string) {
	t.Helper()
	tool := filepath.Base(bin)
	dir := workDir(t, map[string]string{"main.tf": realCanaryConfig, "terraform.tfstate": e.file("terraform.tfstate"),
		".terraform.lock.hcl": e.file(".terraform.lock.hcl")})
	te := &canaryEnv{t: t, bin: bin, dir: dir, env: e.env}
	if r := te.run([]string{"init"}, ""); r.code != 0 {
		t.Fatalf("%s init: exit %d\n%s%s", tool, r.code, r.stdout, r.stderr)
	}
	for _, args := range [][]string{{"show"}, {"state", "show", "local_file.f"}, {"state", "show", "local_file.v"}, {"state", "show", "local_file.copy"}, {"plan", "-replace=random_password.p"}} {
		r := te.run(args, "")
		if r.code != 0 {
			t.Errorf("%s %v on rig's state: exit %d\n%s", tool, args, r.code, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, password) || canaryPattern.MatchString(r.stdout+r.stderr) {
			t.Errorf("%s %v prints a secret from rig's state:\n%s", tool, args, r.stdout)
		}
	}
	rigValues, toolValues := realSensitiveValues(t, e.run([]string{"show", "-json"}, "").stdout), realSensitiveValues(t, te.run([]string{"show", "-json"}, "").stdout)
	if len(toolValues) == 0 || !maps.Equal(rigValues, toolValues) {
		t.Errorf("show -json sensitive_values\n%s %v\nrig %v", tool, toolValues, rigValues)
	}
}

// realSensitiveValues returns the sensitive_values of each resource of a
// show -json document, as compact JSON by address, and "output NAME" the
// sensitive flag of each output.
func realSensitiveValues(t *testing.T, doc string) map[string]string {
	t.Helper()
	var d struct {
		Values struct {
			Outputs    map[string]struct{ Sensitive bool } `json:"outputs"`
			RootModule struct {
				Resources []struct {
					Address         string          `json:"address"`
					SensitiveValues json.RawMessage `json:"sensitive_values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatalf("show -json: %v", err)
	}
	out := map[string]string{}
	for _, r := range d.Values.RootModule.Resources {
		var b bytes.Buffer
		_ = json.Compact(&b, r.SensitiveValues)
		out[r.Address] = b.String()
	}
	for name, o := range d.Values.Outputs {
		out["output "+name] = fmt.Sprint(o.Sensitive)
	}
	return out
}
