package command

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/encryption"
)

const encryptedConfig = `
terraform {
  encryption {
    key_provider "pbkdf2" "pass" {
      passphrase = "correct-horse-battery-staple"
      iterations = 200000
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.pass
    }
    %s
  }
}

variable "message" {
  type    = string
  default = "s3cr3t-default"
}

resource "terraform_data" "greeting" {
  input = var.message
}

output "greeting" {
  value = terraform_data.greeting.output
}
`

func encryptionConfig(targets string) string {
	return strings.Replace(encryptedConfig, "%s", targets, 1)
}

const enforcedTargets = `
    state {
      method   = method.aes_gcm.main
      enforced = true
    }
    plan {
      method   = method.aes_gcm.main
      enforced = true
    }`

// outputValue returns the greeting output as `rig output -raw` prints it.
func outputValue(t *testing.T, dir string) string {
	t.Helper()
	r := rig(t, dir, "output", "-raw", "greeting")
	if r.code != 0 {
		t.Fatalf("output: exit %d\n%s", r.code, r.stderr)
	}
	return r.stdout
}

// mustBeEncrypted fails unless path holds an encrypted payload without any of the secrets.
func mustBeEncrypted(t *testing.T, path string, secrets ...string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !encryption.IsEncrypted(data) {
		t.Fatalf("%s is not encrypted:\n%s", filepath.Base(path), data)
	}
	for _, s := range secrets {
		if bytes.Contains(data, []byte(s)) {
			t.Errorf("%s holds %q in the clear", filepath.Base(path), s)
		}
	}
}

func TestEncryptedStateAndPlan(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": encryptionConfig(enforcedTargets)})
	if r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	statePath := filepath.Join(dir, "terraform.tfstate")
	mustBeEncrypted(t, statePath, "s3cr3t-default", "terraform_data")
	if _, err := os.Stat(statePath + ".journal"); err == nil {
		t.Error("a state journal was written while the state is encrypted")
	}
	if got := outputValue(t, dir); got != "s3cr3t-default" {
		t.Errorf("output after apply = %q", got)
	}

	planPath := filepath.Join(dir, "next.tfplan")
	if r := rig(t, dir, "plan", "-input=false", "-no-color", "-var", "message=s3cr3t-next", "-out="+planPath); r.code != 0 {
		t.Fatalf("plan -out: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustBeEncrypted(t, planPath, "s3cr3t-next", "s3cr3t-default")
	if r := rig(t, dir, "show", "-json", planPath); r.code != 0 || !strings.Contains(r.stdout, "s3cr3t-next") {
		t.Fatalf("show -json of the encrypted plan: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "apply", "-input=false", "-no-color", planPath); r.code != 0 {
		t.Fatalf("apply PLANFILE: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustBeEncrypted(t, statePath, "s3cr3t-next")
	if got := outputValue(t, dir); got != "s3cr3t-next" {
		t.Errorf("output after the saved plan = %q", got)
	}

	// Without the encryption block the state cannot be read, and rig says why.
	writeFile(t, dir, "main.tf", encryptionConfig(""))
	if r := rig(t, dir, "plan", "-input=false", "-no-color"); r.code == 0 || !strings.Contains(r.stderr, "is encrypted, and the configuration has no encryption block") {
		t.Fatalf("plan without a state target: exit %d\n%s", r.code, r.stderr)
	}
	writeFile(t, dir, "main.tf", encryptionConfig(enforcedTargets))

	// state pull prints the decrypted state; state push takes an encrypted file.
	if r := rig(t, dir, "state", "pull"); r.code != 0 || !strings.Contains(r.stdout, `"s3cr3t-next"`) {
		t.Fatalf("state pull: exit %d\n%s", r.code, r.stderr)
	}
	data, _ := os.ReadFile(statePath)
	writeFile(t, dir, "copy.tfstate", string(data))
	if r := rig(t, dir, "state", "push", "copy.tfstate"); r.code != 0 {
		t.Fatalf("state push of an encrypted file: exit %d\n%s", r.code, r.stderr)
	}
}

func TestEncryptionEnforcedAndMigration(t *testing.T) {
	plain := strings.Replace(encryptionConfig(""), "terraform {", "terraform {\n  # no targets\n", 1)
	dir := workDir(t, map[string]string{"main.tf": plain})
	if r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color"); r.code != 0 {
		t.Fatalf("plaintext apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	statePath := filepath.Join(dir, "terraform.tfstate")
	if data, _ := os.ReadFile(statePath); encryption.IsEncrypted(data) {
		t.Fatal("state encrypted without a state block")
	}

	// enforced: the plaintext state is refused, and nothing is written.
	writeFile(t, dir, "main.tf", encryptionConfig(enforcedTargets))
	before, _ := os.ReadFile(statePath)
	r := rig(t, dir, "plan", "-input=false", "-no-color")
	if r.code == 0 || !strings.Contains(r.stderr, "not encrypted") {
		t.Fatalf("enforced plan over a plaintext state: exit %d\n%s", r.code, r.stderr)
	}
	if after, _ := os.ReadFile(statePath); !bytes.Equal(before, after) {
		t.Error("the refused run changed the state")
	}

	// Migration: the unencrypted method as a fallback reads the plaintext
	// state; the next write encrypts it.
	writeFile(t, dir, "main.tf", encryptionConfig(`
    method "unencrypted" "migrate" {}
    state {
      method = method.aes_gcm.main
      fallback {
        method = method.unencrypted.migrate
      }
    }`))
	if r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color", "-var", "message=s3cr3t-migrated"); r.code != 0 {
		t.Fatalf("migrating apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustBeEncrypted(t, statePath, "s3cr3t-migrated")

	// Once encrypted, the enforced configuration reads it.
	writeFile(t, dir, "main.tf", encryptionConfig(enforcedTargets))
	if got := outputValue(t, dir); got != "s3cr3t-migrated" {
		t.Errorf("output after migration = %q", got)
	}
}

func TestUnsupportedKeyProvider(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
terraform {
  encryption {
    key_provider "aws_kms" "k" {
      kms_key_id = "alias/x"
      region     = "eu-west-1"
      key_spec   = "AES_256"
    }
  }
}
resource "terraform_data" "a" {}
`})
	for _, cmd := range []string{"plan", "validate"} {
		r := rig(t, dir, cmd, "-no-color")
		if r.code == 0 || !strings.Contains(r.stderr, `the key provider "aws_kms" is not supported yet`) || !strings.Contains(r.stderr, "main.tf line 4") {
			t.Errorf("%s with aws_kms: exit %d\n%s", cmd, r.code, r.stderr)
		}
	}
}

// TestOpenTofuEncryptedState reads the state OpenTofu 1.10 encrypted.
func TestOpenTofuEncryptedState(t *testing.T) {
	fixture := "../../../shared/fixtures/opentofu-1.10/encryption"
	files := map[string]string{}
	for _, name := range []string{"main.tf", "terraform.tfstate"} {
		data, err := os.ReadFile(filepath.Join(fixture, name))
		if os.IsNotExist(err) {
			t.Skip("OpenTofu fixtures absent: " + fixture)
		}
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(data)
	}
	dir := workDir(t, files)
	r := rig(t, dir, "show", "-json")
	if r.code != 0 {
		t.Fatalf("show -json: exit %d\n%s", r.code, r.stderr)
	}
	var got, want struct {
		Values json.RawMessage `json:"values"`
	}
	wantData, err := os.ReadFile(filepath.Join(fixture, "state.show.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(wantData, &want); err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, got.Values, want.Values) {
		t.Errorf("show -json values differ:\n got %s\nwant %s", got.Values, want.Values)
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return bytes.Equal(xs, ys)
}
