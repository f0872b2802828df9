package command

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// realEphemeralToken is the value of the ephemeral variable of
// realEphemeralConfig.
const realEphemeralToken = "eph-token-5d1f"

const realEphemeralConfig = `terraform {
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

// TestEphemeralRealPlugins applies a configuration with an ephemeral
// variable, ephemeral resources of the real random and tls plugins (one
// with count) and a write-only argument fed by one, as a user runs it:
// the write-only attribute is null in state, no ephemeral resource is
// recorded, a provisioner given an ephemeral value has its output
// suppressed, and a second plan has no changes. When Terraform is
// installed it applies the same configuration, and each tool plans no
// changes on the other's state. (TestCanary checks that no ephemeral value
// is shown or kept.)
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
		if strings.Contains(out, realEphemeralToken) || strings.Contains(out, "PRIVATE KEY") {
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

// compareEphemeralWithTerraform applies the configuration with Terraform
// in a copy of the directory: Terraform leaks nothing either, writes the
// same state shape, and each tool plans no changes on the other's state.
func compareEphemeralWithTerraform(t *testing.T, e *canaryEnv, tf, tokenVar string) {
	t.Helper()
	te := &canaryEnv{t: t, bin: tf, dir: workDir(t, map[string]string{"main.tf": realEphemeralConfig,
		".terraform.lock.hcl": e.file(".terraform.lock.hcl")}), env: e.env}
	for _, args := range [][]string{{"init"}, {"apply", "-auto-approve", tokenVar}} {
		r := te.run(args, "")
		if r.code != 0 {
			t.Fatalf("terraform %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
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
