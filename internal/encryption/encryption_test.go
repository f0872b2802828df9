package encryption

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/config"
)

const fixtureDir = "../../../shared/fixtures/opentofu-1.10/encryption"

// parse returns the encryption configuration of a file's terraform block.
func parse(t *testing.T, src string) (*Encryption, error) {
	t.Helper()
	f, hds := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if hds.HasErrors() {
		t.Fatal(hds)
	}
	content, _, _ := f.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "terraform"}}})
	for _, tb := range content.Blocks {
		inner, _, _ := tb.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "encryption"}}})
		for _, b := range inner.Blocks {
			e, ds := New(&config.RawBlock{Type: b.Type, Body: b.Body, DeclRange: b.DefRange})
			return e, ds.Err()
		}
	}
	t.Fatal("no encryption block")
	return nil, nil
}

func mustParse(t *testing.T, src string) *Encryption {
	t.Helper()
	e, err := parse(t, src)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if os.IsNotExist(err) {
		t.Skip("OpenTofu fixtures absent: " + fixtureDir)
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// resourceValues maps "type.name" to the attributes of its (single) instance.
type stateJSON struct {
	Serial    uint64                         `json:"serial"`
	Lineage   string                         `json:"lineage"`
	Outputs   map[string]struct{ Value any } `json:"outputs"`
	Resources []struct {
		Type, Name string
		Instances  []struct {
			Attributes map[string]any `json:"attributes"`
		}
	} `json:"resources"`
}

type showJSON struct {
	Values struct {
		Outputs    map[string]struct{ Value any } `json:"outputs"`
		RootModule struct {
			Resources []struct {
				Address string         `json:"address"`
				Values  map[string]any `json:"values"`
			} `json:"resources"`
		} `json:"root_module"`
	} `json:"values"`
}

// compareWithShow checks a raw state's outputs and resources against show -json's values.
func compareWithShow(t *testing.T, raw []byte, show showJSON) {
	t.Helper()
	var s stateJSON
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	got, want := map[string]any{}, map[string]any{}
	for name, o := range s.Outputs {
		got["output."+name] = o.Value
	}
	for _, r := range s.Resources {
		for _, in := range r.Instances {
			// Dynamically-typed attributes are stored with their type.
			for k, v := range in.Attributes {
				if m, ok := v.(map[string]any); ok && len(m) == 2 && m["type"] != nil {
					in.Attributes[k] = m["value"]
				}
			}
			got[r.Type+"."+r.Name] = in.Attributes
		}
	}
	for name, o := range show.Values.Outputs {
		want["output."+name] = o.Value
	}
	for _, r := range show.Values.RootModule.Resources {
		want[r.Address] = r.Values
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decrypted state differs from show -json (-want +got):\n%s", diff)
	}
}

func TestDecryptOpenTofuState(t *testing.T) {
	stored := readFixture(t, "terraform.tfstate")
	var show showJSON
	if err := json.Unmarshal(readFixture(t, "state.show.json"), &show); err != nil {
		t.Fatal(err)
	}
	e := mustParse(t, string(readFixture(t, "main.tf")))
	plain, err := e.DecryptState(stored)
	if err != nil {
		t.Fatal(err)
	}
	compareWithShow(t, plain, show)
}

func TestDecryptOpenTofuPlan(t *testing.T) {
	stored := readFixture(t, "next.tfplan")
	var show struct {
		PriorState showJSON `json:"prior_state"`
	}
	if err := json.Unmarshal(readFixture(t, "next.tfplan.show.json"), &show); err != nil {
		t.Fatal(err)
	}
	e := mustParse(t, string(readFixture(t, "main.tf")))
	plain, err := e.DecryptPlan(stored)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(plain), int64(len(plain)))
	if err != nil {
		t.Fatalf("decrypted plan is not OpenTofu's zip: %v", err)
	}
	entries := map[string][]byte{}
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		entries[f.Name], _ = io.ReadAll(r)
		r.Close()
	}
	compareWithShow(t, entries["tfstate"], show.PriorState)
	// The planned value of the variable, set with -var message=bye.
	if !bytes.Contains(entries["tfplan"], []byte("bye")) {
		t.Error("the plan's tfplan entry does not hold the variable value")
	}
}

const passphraseConfig = `
terraform {
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = "a passphrase of some length"
      iterations = 200000
      hash_function = "sha256"
      salt_length = 16
      key_length = 16
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }
    %s
  }
}`

const sampleState = `{"version": 4, "terraform_version": "1.10.6", "serial": 7, "lineage": "l-1", "outputs": {"secret": {"value": "hunter2hunter2", "type": "string"}}, "resources": [], "check_results": null}`

// block returns a terraform block whose encryption block holds body.
func block(body string) string { return "terraform {\n  encryption {\n" + body + "\n  }\n}\n" }

func withTargets(targets string) string { return strings.Replace(passphraseConfig, "%s", targets, 1) }

func TestStateRoundTrip(t *testing.T) {
	e := mustParse(t, withTargets(`state { method = method.aes_gcm.m }`))
	stored, err := e.EncryptState([]byte(sampleState))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stored, []byte("hunter2")) {
		t.Fatalf("plaintext in the encrypted state: %s", stored)
	}
	var outer map[string]json.RawMessage
	if err := json.Unmarshal(stored, &outer); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"serial": "7", "lineage": `"l-1"`, "encryption_version": `"v0"`} {
		if got := string(outer[key]); got != want {
			t.Errorf("%s = %s, want %s", key, got, want)
		}
	}
	if !strings.HasPrefix(string(stored), `{"serial":7,"lineage":"l-1","meta":{"key_provider.pbkdf2.k":"`) {
		t.Errorf("envelope layout differs from OpenTofu's: %.80s", stored)
	}
	// A second configuration with the same passphrase (a new process) reads it.
	plain, err := mustParse(t, withTargets(`state { method = method.aes_gcm.m }`)).DecryptState(stored)
	if err != nil {
		t.Fatal(err)
	}
	if string(plain) != sampleState {
		t.Errorf("round trip: got %s", plain)
	}
	// A later write reuses the derived key; both decrypt.
	again, err := e.EncryptState([]byte(sampleState))
	if err != nil || bytes.Equal(again, stored) {
		t.Fatalf("second encryption: err %v, identical %v", err, bytes.Equal(again, stored))
	}
	if _, err := e.DecryptState(again); err != nil {
		t.Fatal(err)
	}
}

func TestPlanRoundTrip(t *testing.T) {
	e := mustParse(t, withTargets(`plan { method = method.aes_gcm.m }`))
	stored, err := e.EncryptPlan([]byte("PK plan bytes"))
	if err != nil {
		t.Fatal(err)
	}
	if !IsEncrypted(stored) || bytes.Contains(stored, []byte("plan bytes")) {
		t.Fatalf("not encrypted: %s", stored)
	}
	plain, err := e.DecryptPlan(stored)
	if err != nil || string(plain) != "PK plan bytes" {
		t.Fatalf("got %q, %v", plain, err)
	}
	// The state is not configured, so passes through.
	if s, _ := e.EncryptState([]byte(sampleState)); string(s) != sampleState {
		t.Error("state encrypted without a state block")
	}
}

func TestUnencryptedAndFallback(t *testing.T) {
	enforced := mustParse(t, withTargets(`state { 
	  method = method.aes_gcm.m
	  enforced = true
	}`))
	if _, err := enforced.DecryptState([]byte(sampleState)); err == nil || !strings.Contains(err.Error(), "not encrypted") {
		t.Errorf("enforced read of a plaintext state: %v", err)
	}
	migrate := mustParse(t, withTargets(`method "unencrypted" "plain" {}
	  state {
	    method = method.aes_gcm.m
	    fallback { method = method.unencrypted.plain }
	  }`))
	if plain, err := migrate.DecryptState([]byte(sampleState)); err != nil || string(plain) != sampleState {
		t.Errorf("fallback read of a plaintext state: %q, %v", plain, err)
	}
	stored, err := migrate.EncryptState([]byte(sampleState))
	if err != nil || !IsEncrypted(stored) {
		t.Fatalf("migration write: %v", err)
	}
	// Back to plaintext: the unencrypted method first, aes_gcm to read.
	back := mustParse(t, withTargets(`method "unencrypted" "plain" {}
	  state {
	    method = method.unencrypted.plain
	    fallback { method = method.aes_gcm.m }
	  }`))
	if plain, err := back.DecryptState(stored); err != nil || string(plain) != sampleState {
		t.Errorf("fallback decryption: %q, %v", plain, err)
	}
	if out, _ := back.EncryptState([]byte(sampleState)); string(out) != sampleState || back.Encrypts() {
		t.Error("the unencrypted method encrypted")
	}
	wrong := mustParse(t, strings.Replace(withTargets(`state { method = method.aes_gcm.m }`), "of some length", "of other length", 1))
	if _, err := wrong.DecryptState(stored); err == nil {
		t.Error("decrypted with the wrong passphrase")
	}
}

func TestConfigDiagnostics(t *testing.T) {
	cases := map[string]struct{ src, want string }{
		"aws_kms": {block(`key_provider "aws_kms" "k" {
  kms_key_id = "x"
}`),
			`rig supports the pbkdf2 key provider and the aes_gcm and unencrypted methods; the key provider "aws_kms" is not supported yet`},
		"external method": {block(`method "external" "m" {}`), `the method "external" is not supported yet`},
		"enforced unencrypted": {withTargets(`method "unencrypted" "p" {}
		  state {
		    method = method.unencrypted.p
		    enforced = true
		  }`), "Unencrypted method is forbidden"},
		"short passphrase": {block(`key_provider "pbkdf2" "k" {
  passphrase = "short"
}`), "too short"},
		"few iterations": {strings.Replace(withTargets(""), "200000", "1000", 1), "dangerously low"},
		// Loaded outside a configuration tree there is no static
		// evaluator: constants only.
		"variable without a tree": {block(`key_provider "pbkdf2" "k" {
  passphrase = var.p
}`), "Variables not allowed"},
		"undeclared method": {withTargets(`state { method = method.aes_gcm.nope }`), "Reference to undeclared encryption method"},
		"bad keys": {block(`method "aes_gcm" "m" {
  keys = key_provider.pbkdf2.none
}`), "Invalid key provider reference"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := parse(t, c.src)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// TestRecordRoundTrip: journal records are sealed like the state, one line
// each, readable by another configuration with the same passphrase; a
// record in the clear is read only where an unencrypted state would be.
func TestRecordRoundTrip(t *testing.T) {
	record := []byte(`{"set":{"input":"hunter2hunter2"}}`)
	e := mustParse(t, withTargets(`state { method = method.aes_gcm.m }`))
	stored, err := e.EncryptRecord(record)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stored, []byte("hunter2")) || bytes.ContainsRune(stored, '\n') {
		t.Fatalf("stored record holds the plaintext or a newline: %s", stored)
	}
	plain, err := mustParse(t, withTargets(`state { method = method.aes_gcm.m }`)).DecryptRecord(stored)
	if err != nil || !bytes.Equal(plain, record) {
		t.Fatalf("round trip: %s, %v", plain, err)
	}
	if _, err := e.DecryptRecord(record); err == nil {
		t.Error("a record in the clear was read without the unencrypted method")
	}
	migrating := mustParse(t, withTargets(`method "unencrypted" "u" {}
    state {
      method = method.aes_gcm.m
      fallback {
        method = method.unencrypted.u
      }
    }`))
	if got, err := migrating.DecryptRecord(record); err != nil || !bytes.Equal(got, record) {
		t.Errorf("with the unencrypted fallback: %s, %v", got, err)
	}
	// Without encryption records are stored as they are.
	if got, err := (*Encryption)(nil).EncryptRecord(record); err != nil || !bytes.Equal(got, record) {
		t.Errorf("no encryption: %s, %v", got, err)
	}
}
