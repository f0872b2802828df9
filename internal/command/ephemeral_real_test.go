package command

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// realEphemeralToken is the value of the ephemeral variable of
// realEphemeralConfig.
const realEphemeralToken = "eph-token-5d1f"

// realEphemeralConfig names its providers by their full source, so that
// OpenTofu (whose default registry is another) installs the same plugins
// from the mirror.
const realEphemeralConfig = `terraform {
  required_providers {
    random = { source = "registry.terraform.io/hashicorp/random" }
    tls    = { source = "registry.terraform.io/hashicorp/tls" }
    local  = { source = "registry.terraform.io/hashicorp/local" }
  }
}
variable "token" {
  type      = string
  ephemeral = true
}
ephemeral "random_password" "db" {
  length = 24
}
ephemeral "tls_private_key" "k" {
  count     = 1
  algorithm = "ED25519"
}
ephemeral "tls_public_key" "pub" {
  private_key_pem = ephemeral.tls_private_key.k[0].private_key_pem
}
ephemeral "local_command" "echo" {
  command = "cat"
  stdin   = var.token
}
locals {
  token_len = length(var.token)
}
resource "tls_self_signed_cert" "c" {
  private_key_pem_wo         = ephemeral.tls_private_key.k[0].private_key_pem
  private_key_pem_wo_version = 1
  validity_period_hours      = 12
  allowed_uses               = ["key_encipherment"]
  subject {
    common_name = "example.com"
  }
  lifecycle {
    precondition {
      condition     = ephemeral.local_command.echo.stdout == var.token
      error_message = "The command did not echo the token."
    }
  }
}
resource "local_file" "f" {
  filename = "${path.module}/out.txt"
  content  = "applying=${terraform.workspace}"
  provisioner "local-exec" {
    command     = "test -n \"$PW\" && test -n \"$FP\" && echo \"token=$TOKEN\""
    environment = {
      PW    = ephemeral.random_password.db.result
      FP    = ephemeral.tls_public_key.pub.public_key_fingerprint_sha256
      TOKEN = ephemeral.local_command.echo.stdout
    }
  }
}
output "cert" {
  value = tls_self_signed_cert.c.cert_pem
}
`

// localCommandLog matches the local plugin's own log line that quotes
// what its local_command ran and printed, which rig passes on at
// TF_LOG=trace as Terraform and OpenTofu do, and does not answer for.
var localCommandLog = regexp.MustCompile(`(?m)^.*terraform-provider-local[^:]*: Executed local command: .*$`)

// TestEphemeralRealPlugins applies a configuration with an ephemeral
// variable, ephemeral resources of the real random, tls and local plugins
// (one with count, one opened from another's value) and a write-only
// argument fed by one, as a user runs it: the write-only attribute is
// null in state, no ephemeral resource is recorded, a provisioner given an
// ephemeral value has its output suppressed, and a second plan has no
// changes. Terraform (when installed) and OpenTofu (RIG_TEST_TOFU) apply
// the same configuration: the states are the same but for the values of
// the run, and each tool plans no changes on the other's state.
// (TestCanary checks that no ephemeral value is shown or kept.)
func TestEphemeralRealPlugins(t *testing.T) {
	e := newRealCanaryEnv(t, realEphemeralConfig, "random", "tls", "local")
	tokenVar := "-var=token=" + realEphemeralToken

	steps := []struct {
		name string
		args []string
	}{
		{"init", []string{"init"}},
		{"plan -out", []string{"plan", tokenVar, "-out=e.plan"}},
		{"apply PLANFILE", []string{"apply", "-input=false", tokenVar, "e.plan"}},
		{"plan after", []string{"plan", "-detailed-exitcode", tokenVar}},
		{"destroy", []string{"destroy", "-auto-approve", tokenVar}},
		{"apply again", []string{"apply", "-auto-approve", tokenVar}},
	}
	for _, s := range steps {
		r := e.run(s.args, "")
		out := r.stdout + r.stderr
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", s.name, r.code, out)
		}
		if rigOut := localCommandLog.ReplaceAllString(out, ""); strings.Contains(rigOut, realEphemeralToken) || strings.Contains(rigOut, "PRIVATE KEY") {
			t.Errorf("%s printed an ephemeral value:\n%s", s.name, out)
		}
		switch s.name {
		case "apply PLANFILE", "apply again":
			checkEphemeralState(t, e.file("terraform.tfstate"))
			if !strings.Contains(out, "(output suppressed due to ephemeral value in config)") {
				t.Errorf("%s: the provisioner's output is not suppressed:\n%s", s.name, out)
			}
		}
	}
	tf, _ := exec.LookPath("terraform")
	for _, bin := range []string{tf, tofuBinary()} {
		if bin != "" {
			compareEphemeralWith(t, e, bin, tokenVar)
		}
	}
}

// checkEphemeralState checks a state written after applying the
// configuration: no ephemeral resource, the write-only attribute null and
// recorded sensitive, the ephemeral resource among the dependencies.
func checkEphemeralState(t *testing.T, raw string) {
	t.Helper()
	var st struct {
		Resources []struct {
			Mode, Type string
			Instances  []struct {
				Attributes          map[string]json.RawMessage `json:"attributes"`
				SensitiveAttributes json.RawMessage            `json:"sensitive_attributes"`
				Dependencies        []string                   `json:"dependencies"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		t.Fatalf("state: %v", err)
	}
	found := false
	for _, r := range st.Resources {
		if r.Mode == "ephemeral" {
			t.Errorf("state records ephemeral resource %s", r.Type)
		}
		if r.Type != "tls_self_signed_cert" {
			continue
		}
		found = true
		in := r.Instances[0]
		if string(in.Attributes["private_key_pem_wo"]) != "null" {
			t.Errorf("private_key_pem_wo = %s in state, want null", in.Attributes["private_key_pem_wo"])
		}
		if !strings.Contains(string(in.SensitiveAttributes), "private_key_pem_wo") {
			t.Errorf("sensitive_attributes = %s, want private_key_pem_wo among them", in.SensitiveAttributes)
		}
		if want := []string{"ephemeral.local_command.echo", "ephemeral.tls_private_key.k"}; !slices.Equal(in.Dependencies, want) {
			t.Errorf("dependencies = %v, want %v", in.Dependencies, want)
		}
	}
	if !found {
		t.Errorf("no tls_self_signed_cert in state:\n%s", raw)
	}
}

// compareEphemeralWith applies the configuration with another tool (bin:
// Terraform or OpenTofu) in a copy of the directory: it leaks nothing
// either, writes the same state byte for byte but for the values that
// differ from run to run, and each tool plans no changes on the other's
// state.
func compareEphemeralWith(t *testing.T, e *canaryEnv, bin, tokenVar string) {
	t.Helper()
	tool := filepath.Base(bin)
	te := &canaryEnv{t: t, bin: bin, dir: workDir(t, map[string]string{"main.tf": realEphemeralConfig,
		".terraform.lock.hcl": e.file(".terraform.lock.hcl")}), env: e.env}
	for _, args := range [][]string{{"init"}, {"apply", "-auto-approve", tokenVar}} {
		r := te.run(args, "")
		if r.code != 0 {
			t.Fatalf("%s %v: exit %d\n%s%s", tool, args, r.code, r.stdout, r.stderr)
		}
	}
	toolState := te.file("terraform.tfstate")
	checkEphemeralState(t, toolState)
	if got, want := runIndependentState(e.file("terraform.tfstate")), runIndependentState(toolState); got != want {
		t.Errorf("rig's state differs from %s's beyond the values of the run:\n%s", tool, lineDiff(want, got))
	}
	// Each tool on the other's state: no changes.
	writeFile(t, e.dir, "other.tfstate", toolState)
	if r := e.run([]string{"plan", "-detailed-exitcode", "-state=other.tfstate", tokenVar}, ""); r.code != 0 {
		t.Errorf("rig plan on %s's state: exit %d\n%s%s", tool, r.code, r.stdout, r.stderr)
	}
	writeFile(t, te.dir, "rig.tfstate", e.file("terraform.tfstate"))
	if r := te.run([]string{"plan", "-detailed-exitcode", "-state=rig.tfstate", tokenVar}, ""); r.code != 0 {
		t.Errorf("%s plan on rig's state: exit %d\n%s%s", tool, r.code, r.stdout, r.stderr)
	}
}

// runValue matches the members of a state that differ from one apply of
// realEphemeralConfig to the next (and the version of the tool that wrote
// it), and the certificate in the output.
var runValue = regexp.MustCompile(`"(terraform_version|lineage|serial|id|cert_pem|validity_start_time|validity_end_time)": ("[^"]*"|[0-9]+)|"(value)": "-----BEGIN CERTIFICATE[^"]*"`)

// runIndependentState returns a state's text with the values that differ
// from run to run replaced, the lines of each sensitive_attributes list
// sorted (Terraform writes its paths in an order that varies from run to
// run) and without the blank line OpenTofu 1.12 ends it with.
func runIndependentState(raw string) string {
	lines := strings.Split(strings.TrimRight(runValue.ReplaceAllString(raw, `"$1$3": …`), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasSuffix(lines[i], `"sensitive_attributes": [`) {
			continue
		}
		end := strings.Repeat(" ", len(lines[i])-len(strings.TrimLeft(lines[i], " "))) + "]"
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j], end) {
			j++
		}
		slices.Sort(lines[i+1 : j])
		i = j
	}
	return strings.Join(lines, "\n") + "\n"
}

// lineDiff lists the lines of got that want does not have at the same
// place, for a failure message.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %s\n  got  %s\n", i+1, wl, gl)
		}
	}
	return b.String()
}
