package encryption

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/config"
)

// encryptionBlock returns the encryption block of src's terraform block.
func encryptionBlock(t *testing.T, src string) *config.RawBlock {
	t.Helper()
	f, hds := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if hds.HasErrors() {
		t.Fatal(hds)
	}
	content, _, _ := f.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "terraform"}}})
	for _, tb := range content.Blocks {
		inner, _, _ := tb.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "encryption"}}})
		for _, b := range inner.Blocks {
			return &config.RawBlock{Type: b.Type, Body: b.Body, DeclRange: b.DefRange}
		}
	}
	t.Fatal("no encryption block")
	return nil
}

// TestEncryptionFromEnvironment: TF_ENCRYPTION alone configures
// encryption, in HCL or JSON; beside a configuration's block it overrides
// arguments of its key providers and targets, and enforced = true holds
// whichever of the two sets it.
func TestEncryptionFromEnvironment(t *testing.T) {
	const hclEnv = `
key_provider "pbkdf2" "k" {
  passphrase = "a passphrase of some length"
}
method "aes_gcm" "m" {
  keys = key_provider.pbkdf2.k
}
state {
  method = method.aes_gcm.m
}`
	const jsonEnv = `{"key_provider": {"pbkdf2": {"k": {"passphrase": "a passphrase of some length"}}},
 "method": {"aes_gcm": {"m": {"keys": "key_provider.pbkdf2.k"}}},
 "state": {"method": "method.aes_gcm.m"}}`
	fromHCL, ds := NewWithEnv(nil, nil, hclEnv)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	fromJSON, ds := NewWithEnv(nil, nil, jsonEnv)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	stored, err := fromHCL.EncryptState([]byte(sampleState))
	if err != nil || strings.Contains(string(stored), "hunter2") {
		t.Fatalf("TF_ENCRYPTION did not encrypt: %v\n%s", err, stored)
	}
	if plain, err := fromJSON.DecryptState(stored); err != nil || string(plain) != sampleState {
		t.Fatalf("the JSON form did not read what the HCL form wrote: %v", err)
	}

	// The configuration's placeholder passphrase, overridden.
	cfg := encryptionBlock(t, block(`key_provider "pbkdf2" "k" {
  passphrase = "a placeholder of some length"
}
method "aes_gcm" "m" {
  keys = key_provider.pbkdf2.k
}
method "unencrypted" "u" {}
state {
  method   = method.aes_gcm.m
  enforced = true
}`))
	merged, ds := NewWithEnv(cfg, nil, `key_provider "pbkdf2" "k" { passphrase = "a passphrase of some length" }`)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if plain, err := merged.DecryptState(stored); err != nil || string(plain) != sampleState {
		t.Fatalf("overridden passphrase: %v", err)
	}
	if plain, err := mustParseBlock(t, cfg).DecryptState(stored); err == nil {
		t.Fatalf("the placeholder passphrase decrypted the state: %s", plain)
	}
	// enforced = true in the configuration holds against the environment.
	_, ds = NewWithEnv(cfg, nil, "state {\n  method = method.unencrypted.u\n  enforced = false\n}")
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "Unencrypted method is forbidden") {
		t.Errorf("enforced lifted by TF_ENCRYPTION: %v", ds.Err())
	}
	// Whitespace alone is no configuration; a syntax error is reported.
	if e, ds := NewWithEnv(nil, nil, " \n"); e != nil || ds.HasErrors() {
		t.Errorf("blank TF_ENCRYPTION: %v, %v", e, ds.Err())
	}
	if _, ds := NewWithEnv(nil, nil, "state {"); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "TF_ENCRYPTION") {
		t.Errorf("unclosed block: %v", ds.Err())
	}
}

func mustParseBlock(t *testing.T, b *config.RawBlock) *Encryption {
	t.Helper()
	e, ds := New(b)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return e
}
