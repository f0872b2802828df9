package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEncryptionFromEnvironment: a pipeline keeps the encryption
// settings, passphrase included, in TF_ENCRYPTION rather than in the
// configuration; the state is written encrypted and read back only with
// them.
func TestEncryptionFromEnvironment(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
variable "passphrase" {
  type      = string
  sensitive = true
}
resource "terraform_data" "a" {
  input = "hunter2hunter2"
}
output "o" {
  value = terraform_data.a.output
}
`})
	t.Setenv("TF_VAR_passphrase", "a passphrase only the pipeline knows")
	t.Setenv("TF_ENCRYPTION", `
key_provider "pbkdf2" "k" {
  passphrase = var.passphrase
}
method "aes_gcm" "m" {
  keys = key_provider.pbkdf2.k
}
state {
  method   = method.aes_gcm.m
  enforced = true
}`)
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	stored, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil || strings.Contains(string(stored), "hunter2") || !strings.Contains(string(stored), `"encrypted_data"`) {
		t.Fatalf("state not encrypted: %v\n%s", err, stored)
	}
	if r := rig(t, dir, "output", "-raw", "o"); r.code != 0 || r.stdout != "hunter2hunter2" {
		t.Fatalf("output with TF_ENCRYPTION: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	t.Setenv("TF_ENCRYPTION", "")
	if r := rig(t, dir, "plan", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, "terraform.tfstate is encrypted") {
		t.Fatalf("plan without TF_ENCRYPTION: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	t.Setenv("TF_ENCRYPTION", "state {")
	if r := rig(t, dir, "plan", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, "on TF_ENCRYPTION line 1") {
		t.Fatalf("plan with a TF_ENCRYPTION that does not parse: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
