package workdir

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/command/commandtest"
	"github.com/rig-iac/rig/internal/config"
)

// TestS3BackendRecord: for the s3 block of testdata/s3-record, rig
// computes the hashes Terraform 1.11.4 and OpenTofu 1.10.6 recorded (their
// schemas differ, so the hashes do), accepts each tool's record, and
// writes a record whose config is Terraform's.
func TestS3BackendRecord(t *testing.T) {
	fixture := filepath.Join("testdata", "s3-record")
	mod, ds := config.LoadDir(fixture)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	want, ds := blockSpec(mod.Terraform.Backend)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	// The hashes in each tool's .terraform/terraform.tfstate after its init.
	hashes := map[backendHashForm]uint64{hashTerraform: 335355409, hashOpenTofu: 3137969882}
	records := map[backendHashForm]string{hashTerraform: "terraform-1.11.4.json", hashOpenTofu: "opentofu-1.10.6.json"}
	if want.Form != hashTerraform || want.Hash != hashes[hashTerraform] {
		t.Errorf("form %d hash %d, want Terraform's %d", want.Form, want.Hash, hashes[hashTerraform])
	}
	for form, file := range records {
		if got, ok := blockHash(form, "s3", want.block); !ok || got != hashes[form] {
			t.Errorf("%s: hash %d (%v), want %d", file, got, ok, hashes[form])
		}
		record, err := os.ReadFile(filepath.Join(fixture, file))
		if err != nil {
			t.Fatal(err)
		}
		rec := readRecordText(t, string(record))
		if rec.Hash != hashes[form] {
			t.Fatalf("%s records hash %d", file, rec.Hash)
		}
		if got, ok := rec.recordedFor(want); !ok || got != form {
			t.Errorf("%s: recordedFor = %d, %v; want form %d", file, got, ok, form)
		}
	}
	// rig's record of the block is Terraform's.
	tfRecord, err := os.ReadFile(filepath.Join(fixture, records[hashTerraform]))
	if err != nil {
		t.Fatal(err)
	}
	if rec := readRecordText(t, string(tfRecord)); !rec.same(want) {
		t.Errorf("settings from Terraform's record differ from the block's:\n%s", cmp.Diff(want.Settings, rec.Settings))
	}
	d := New(t.TempDir(), Options{})
	if err := d.writeBackendRecord(want); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(d.backendRecordPath())
	if err != nil {
		t.Fatal(err)
	}
	var a, b map[string]any
	if err := json.Unmarshal(tfRecord, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &b); err != nil {
		t.Fatal(err)
	}
	a["terraform_version"], b["terraform_version"] = nil, nil
	// rig leaves out endpoints.sso, null, so that OpenTofu, whose schema
	// lacks it, reads the record too.
	delete(a["backend"].(map[string]any)["config"].(map[string]any)["endpoints"].(map[string]any), "sso")
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("record (-Terraform +rig):\n%s", diff)
	}
}

// readRecordText reads a backend record as rig reads .terraform/terraform.tfstate.
func readRecordText(t *testing.T, record string) backendSpec {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".terraform"), 0o755); err != nil {
		t.Fatal(err)
	}
	commandtest.WriteFile(t, dir, ".terraform/terraform.tfstate", record)
	var rec backendSpec
	var ok bool
	var err error
	rec, ok, err = New(dir, Options{}).readBackendRecord()
	if err != nil || !ok {
		t.Fatalf("reading the record: %v (found %v)", err, ok)
	}
	return rec
}

// TestS3Forms: OpenTofu-only settings make OpenTofu's form the one
// recorded, with its schema in the record; Terraform-only nested
// attributes keep Terraform's.
func TestS3Forms(t *testing.T) {
	tests := []struct {
		name     string
		settings map[string]string
		form     backendHashForm
	}{
		{"common settings", map[string]string{"bucket": "b", "key": "k"}, hashTerraform},
		{"OpenTofu's role_arn", map[string]string{"bucket": "b", "role_arn": "arn:aws:iam::1:role/r"}, hashOpenTofu},
		{"Terraform's endpoints.sso", map[string]string{"endpoints": `{"sso":"https://sso"}`}, hashTerraform},
		{"assume_role in both", map[string]string{"assume_role": `{"role_arn":"arn:aws:iam::1:role/r"}`}, hashTerraform},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if f := preferredForm("s3", tt.settings, tt.settings); f != tt.form {
				t.Errorf("preferredForm = %d, want %d", f, tt.form)
			}
			for _, f := range []backendHashForm{hashTerraform, hashOpenTofu} {
				_, ok := blockHash(f, "s3", tt.settings)
				if wantOK := representable(f, "s3", tt.settings); ok != wantOK {
					t.Errorf("form %d: blockHash ok %v, representable %v", f, ok, wantOK)
				}
			}
		})
	}
	// OpenTofu's schema lacks sso: a block setting it has no OpenTofu hash.
	if _, ok := blockHash(hashOpenTofu, "s3", map[string]string{"endpoints": `{"sso":"https://sso"}`}); ok {
		t.Error("OpenTofu's form accepted endpoints.sso")
	}
}

// TestS3Settings: the block's nested objects, sets and numbers are read,
// checked against their types and turned into the backend's Config.
func TestS3Settings(t *testing.T) {
	tests := []struct {
		name    string
		block   string
		env     map[string]string
		check   func(t *testing.T, spec backendSpec)
		wantErr string
	}{
		{name: "full", block: `
bucket = "b"
key = "path/terraform.tfstate"
region = "eu-west-1"
workspace_key_prefix = "ws"
encrypt = true
kms_key_id = "alias/state"
acl = "private"
endpoints = { s3 = "http://127.0.0.1:9000", dynamodb = "http://127.0.0.1:8000", sts = "sts.example" }
use_path_style = true
profile = "team"
shared_credentials_files = ["~/creds"]
shared_config_files = ["/etc/aws/config"]
assume_role = { role_arn = "arn:aws:iam::123456789012:role/state", session_name = "rig", external_id = "x", duration = "1h", tags = { team = "a" } }
use_lockfile = true
dynamodb_table = "locks"
max_retries = 7
skip_s3_checksum = true
`, check: func(t *testing.T, spec backendSpec) {
			cfg, ds := s3ConfigFromSettings(spec.Settings, func(string) string { return "" })
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if cfg.Bucket != "b" || cfg.Key != "path/terraform.tfstate" || cfg.WorkspacePrefix() != "ws" || !cfg.Encrypt || cfg.KMSKeyID != "alias/state" {
				t.Errorf("config %+v", cfg)
			}
			if cfg.Endpoints.S3 != "http://127.0.0.1:9000" || cfg.Endpoints.DynamoDB != "http://127.0.0.1:8000" || cfg.Endpoints.STS != "sts.example" || !cfg.UsePathStyle {
				t.Errorf("endpoints %+v", cfg.Endpoints)
			}
			if r := cfg.AssumeRole; r == nil || r.RoleARN != "arn:aws:iam::123456789012:role/state" || r.Duration.String() != "1h0m0s" || r.Tags["team"] != "a" || r.SessionName != "rig" {
				t.Errorf("assume_role %+v", cfg.AssumeRole)
			}
			if cfg.MaxRetries != 7 || !cfg.UseLockfile || cfg.DynamoDBTable != "locks" || !cfg.SkipS3Checksum ||
				len(cfg.SharedCredentialsFiles) != 1 || cfg.SharedConfigFiles[0] != "/etc/aws/config" || cfg.Profile != "team" {
				t.Errorf("config %+v", cfg)
			}
		}},
		{name: "deprecated settings", block: `
bucket = "b"
key = "k"
endpoint = "http://s3.local"
force_path_style = true
role_arn = "arn:aws:iam::123456789012:role/state"
assume_role_duration_seconds = 1800
`, env: map[string]string{"AWS_REGION": "us-east-1"}, check: func(t *testing.T, spec backendSpec) {
			cfg, ds := s3ConfigFromSettings(spec.Settings, func(k string) string { return map[string]string{"AWS_REGION": "us-east-1"}[k] })
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			if cfg.Endpoints.S3 != "http://s3.local" || !cfg.UsePathStyle || cfg.AssumeRole == nil || cfg.AssumeRole.Duration.Minutes() != 30 {
				t.Errorf("config %+v, assume_role %+v", cfg, cfg.AssumeRole)
			}
			var warned []string
			for _, d := range ds {
				warned = append(warned, d.Summary+": "+d.Detail)
			}
			if len(warned) != 3 || !strings.Contains(strings.Join(warned, "\n"), `"endpoint" setting is deprecated: use "endpoints.s3"`) {
				t.Errorf("warnings %q, want one per deprecated setting", warned)
			}
			if spec.Form != hashOpenTofu {
				t.Errorf("form %d, want OpenTofu's (Terraform has no top-level role_arn)", spec.Form)
			}
		}},
		{name: "unknown setting", block: "bucket = \"b\"\nconn_str = \"x\"\n", wantErr: `The s3 backend has no setting named "conn_str"`},
		{name: "unknown endpoint", block: "endpoints = { ftp = \"x\" }\n", wantErr: `"endpoints" setting of the s3 backend must be`},
		{name: "wrong type", block: "shared_config_files = \"one\"\n", wantErr: `"shared_config_files" setting of the s3 backend must be set of string`},
		{name: "endpoints as a block", block: "endpoints {\n  s3 = \"x\"\n}\n", wantErr: `Did you mean to define argument "endpoints"? If so, use the equals sign`},
		{name: "bad max_retries", block: "max_retries = \"many\"\n", wantErr: `"max_retries" setting of the s3 backend must be a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			commandtest.WriteFile(t, dir, "main.tf", "terraform {\n  backend \"s3\" {\n"+tt.block+"\n  }\n}\n")
			mod, ds := config.LoadDir(dir)
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			spec, ds := blockSpec(mod.Terraform.Backend)
			if tt.wantErr != "" {
				if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), tt.wantErr) {
					t.Fatalf("diagnostics %v, want %q", ds, tt.wantErr)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			tt.check(t, spec)
		})
	}
}
