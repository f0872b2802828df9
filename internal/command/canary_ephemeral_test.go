package command

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// ephemeralCanary is the value of the ephemeral variable; no output,
// state, plan or log may contain it, nor a private key.
const ephemeralCanary = "eph-canary-5d1f"

const ephemeralCanaryConfig = `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
    tls    = { source = "hashicorp/tls" }
    local  = { source = "hashicorp/local" }
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
}
resource "local_file" "f" {
  filename = "${path.module}/out.txt"
  content  = "applying=${terraform.workspace}"
  provisioner "local-exec" {
    command     = "test -n \"$PW\" && echo \"token=$TOKEN\""
    environment = {
      PW    = ephemeral.random_password.db.result
      TOKEN = var.token
    }
  }
}
output "cert" {
  value = tls_self_signed_cert.c.cert_pem
}
`

// ephemeralLeak returns what out shows of an ephemeral value: the
// ephemeral variable's value or a private key.
func ephemeralLeak(out string) string {
	for _, s := range []string{ephemeralCanary, "PRIVATE KEY"} {
		if strings.Contains(out, s) {
			return s
		}
	}
	return ""
}

// TestCanaryEphemeralReal runs the commands a user runs on a configuration
// with an ephemeral variable, ephemeral resources of the real random and
// tls plugins (one with count) and a write-only argument fed by one, with
// TF_LOG=trace: no output, log, state, backup or saved plan holds an
// ephemeral value; the write-only attribute is null in state; a saved plan
// names the ephemeral variable and its apply needs it again. When
// Terraform is installed it applies the same configuration, and each tool
// plans no changes on the other's state.
func TestCanaryEphemeralReal(t *testing.T) {
	mirror := realMirror(t, "random", "tls", "local")
	e := newCanaryEnv(t, buildRig(t))
	e.dir = workDir(t, map[string]string{"main.tf": ephemeralCanaryConfig})
	cliDir := t.TempDir()
	writeFile(t, cliDir, "cli.tfrc", `provider_installation {
  filesystem_mirror {
    path = "`+mirror+`"
  }
}
`)
	e.env = append(slices.DeleteFunc(e.env, func(kv string) bool { return strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=") }),
		"TF_CLI_CONFIG_FILE="+filepath.Join(cliDir, "cli.tfrc"))
	tokenVar := "-var=token=" + ephemeralCanary

	steps := []struct {
		name string
		args []string
		fail bool
	}{
		{"init", []string{"init"}, false},
		{"validate", []string{"validate"}, false},
		{"plan", []string{"plan", tokenVar}, false},
		{"plan -out", []string{"plan", tokenVar, "-out=e.plan"}, false},
		{"show PLANFILE", []string{"show", "e.plan"}, false},
		{"show -json PLANFILE", []string{"show", "-json", "e.plan"}, false},
		{"apply PLANFILE without the variable", []string{"apply", "-input=false", "e.plan"}, true},
		{"apply PLANFILE", []string{"apply", "-input=false", tokenVar, "e.plan"}, false},
		{"show", []string{"show"}, false},
		{"show -json", []string{"show", "-json"}, false},
		{"state show", []string{"state", "show", "tls_self_signed_cert.c"}, false},
		{"state pull", []string{"state", "pull"}, false},
		{"output", []string{"output"}, false},
		{"plan after", []string{"plan", "-detailed-exitcode", tokenVar}, false},
		{"apply -json", []string{"apply", "-json", "-auto-approve", tokenVar}, false},
		{"refresh", []string{"refresh", tokenVar}, false},
		{"plan without the variable", []string{"plan", "-input=false"}, true},
		{"destroy", []string{"destroy", "-auto-approve", tokenVar}, false},
		{"apply again", []string{"apply", "-auto-approve", tokenVar}, false},
	}
	for _, s := range steps {
		r := e.run(s.args, "")
		out := r.stdout + r.stderr
		if (r.code != 0) != s.fail {
			t.Fatalf("%s: exit %d\n%s", s.name, r.code, out)
		}
		if leak := ephemeralLeak(out); leak != "" {
			t.Errorf("%s printed %q:\n%s", s.name, leak, out)
		}
		for _, f := range []string{"terraform.tfstate", "terraform.tfstate.backup", "e.plan"} {
			if leak := ephemeralLeak(e.file(f)); leak != "" {
				t.Errorf("after %s, %s holds %q", s.name, f, leak)
			}
		}
		switch s.name {
		case "plan -out":
			var pf struct {
				EphemeralVariables []string `json:"ephemeral_variables"`
			}
			if err := json.Unmarshal([]byte(e.file("e.plan")), &pf); err != nil || !slices.Equal(pf.EphemeralVariables, []string{"token"}) {
				t.Errorf("saved plan names ephemeral variables %v (%v), want [token]", pf.EphemeralVariables, err)
			}
		case "apply PLANFILE without the variable":
			if !strings.Contains(out, `Variable "token" is configured as ephemeral`) {
				t.Errorf("apply without the ephemeral variable says:\n%s", out)
			}
		case "apply PLANFILE", "apply again":
			checkEphemeralState(t, e.file("terraform.tfstate"))
			if !strings.Contains(out, "(output suppressed due to ephemeral value in config)") {
				t.Errorf("%s: the provisioner's output is not suppressed:\n%s", s.name, out)
			}
		case "plan after":
			if r.code != 0 {
				t.Errorf("a second plan is not empty (exit %d):\n%s", r.code, out)
			}
		}
	}
	if tf, err := exec.LookPath("terraform"); err == nil {
		compareEphemeralWithTerraform(t, e, tf, tokenVar)
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
		if !slices.Equal(in.Dependencies, []string{"ephemeral.tls_private_key.k"}) {
			t.Errorf("dependencies = %v, want [ephemeral.tls_private_key.k]", in.Dependencies)
		}
	}
	if !found {
		t.Errorf("no tls_self_signed_cert in state:\n%s", raw)
	}
}

// cliArgsLine matches the lines of Terraform's log that quote its
// command line.
var cliArgsLine = regexp.MustCompile(`(?m)^.*CLI (command )?args: .*$`)

// compareEphemeralWithTerraform applies the configuration with Terraform
// in a copy of the directory: Terraform leaks nothing either, writes the
// same state shape, and each tool plans no changes on the other's state.
func compareEphemeralWithTerraform(t *testing.T, e *canaryEnv, tf, tokenVar string) {
	t.Helper()
	te := &canaryEnv{t: t, bin: tf, dir: workDir(t, map[string]string{"main.tf": ephemeralCanaryConfig,
		".terraform.lock.hcl": e.file(".terraform.lock.hcl")}), env: e.env}
	for _, args := range [][]string{{"init"}, {"apply", "-auto-approve", tokenVar}} {
		r := te.run(args, "")
		if r.code != 0 {
			t.Fatalf("terraform %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		// Terraform's log quotes its command line, which holds -var.
		out := cliArgsLine.ReplaceAllString(r.stdout+r.stderr, "")
		if leak := ephemeralLeak(out); leak != "" {
			t.Errorf("terraform %v printed %q", args, leak)
		}
	}
	tfState := te.file("terraform.tfstate")
	checkEphemeralState(t, tfState)
	// Each tool on the other's state: no changes.
	rigOnTF := &canaryEnv{t: t, bin: e.bin, dir: e.dir, env: e.env}
	writeFile(t, e.dir, "tf.tfstate", tfState)
	if r := rigOnTF.run([]string{"plan", "-detailed-exitcode", "-state=tf.tfstate", tokenVar}, ""); r.code != 0 {
		t.Errorf("rig plan on Terraform's state: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	writeFile(t, te.dir, "rig.tfstate", e.file("terraform.tfstate"))
	if r := te.run([]string{"plan", "-detailed-exitcode", "-state=rig.tfstate", tokenVar}, ""); r.code != 0 {
		t.Errorf("terraform plan on rig's state: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
