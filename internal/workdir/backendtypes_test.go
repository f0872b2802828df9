package workdir

import (
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rig-iac/rig/internal/command/commandtest"
	"github.com/rig-iac/rig/internal/config"
)

// httpBlockSpec evaluates a backend "http" block's body.
func httpBlockSpec(t *testing.T, body string) (backendSpec, string) {
	t.Helper()
	f, hds := hclsyntax.ParseConfig([]byte(body), "main.tf", hcl.InitialPos)
	if hds.HasErrors() {
		t.Fatal(hds)
	}
	spec, ds := blockSpec(&config.Backend{Type: "http", Config: f.Body})
	msgs := []string{}
	for _, d := range ds {
		msgs = append(msgs, d.Summary+": "+d.Detail)
	}
	return spec, strings.Join(msgs, "\n")
}

// TestHTTPBlockHash: the hash Terraform 1.11.4 recorded for a backend
// "http" block (terraform init against a loopback server), with a number
// and a boolean among its settings.
func TestHTTPBlockHash(t *testing.T) {
	spec, errs := httpBlockSpec(t, `
address        = "http://127.0.0.1:18765/state/a"
lock_address   = "http://127.0.0.1:18765/state/a"
retry_max      = 3
skip_cert_verification = true
`)
	if errs != "" {
		t.Fatal(errs)
	}
	if spec.Form != hashTerraform || spec.Hash != 3214446542 {
		t.Errorf("form %d hash %d, want Terraform's 3214446542", spec.Form, spec.Hash)
	}
	// headers is OpenTofu's: a block using it is hashed as OpenTofu does.
	spec, errs = httpBlockSpec(t, `
address = "http://s/x"
headers = { X-Team = "infra", Authorization = "Bearer t" }
`)
	if errs != "" {
		t.Fatal(errs)
	}
	if spec.Form != hashOpenTofu || spec.Settings["headers"] != `{"Authorization":"Bearer t","X-Team":"infra"}` {
		t.Errorf("form %d, headers %s", spec.Form, spec.Settings["headers"])
	}
}

// TestHTTPSettingTypes: what blockSpec accepts for each type of setting.
func TestHTTPSettingTypes(t *testing.T) {
	tests := []struct {
		body    string
		want    map[string]string
		wantErr string
	}{
		{`retry_max = 5`, map[string]string{"retry_max": "5"}, ""},
		{`retry_max = "5"`, map[string]string{"retry_max": "5"}, ""},
		{`retry_max = "five"`, nil, `The "retry_max" setting of the http backend must be a number.`},
		{`skip_cert_verification = "yes"`, nil, `The "skip_cert_verification" setting of the http backend must be a boolean.`},
		{`headers = "x"`, nil, `The "headers" setting of the http backend must be a map of strings.`},
		{`headers = {}`, map[string]string{"headers": `{}`}, ""},
		{`adress = "x"`, nil, `The http backend has no setting named "adress".`},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			spec, errs := httpBlockSpec(t, tt.body)
			if tt.wantErr != "" {
				if !strings.Contains(errs, tt.wantErr) {
					t.Errorf("diagnostics %q, want %q", errs, tt.wantErr)
				}
				return
			}
			if errs != "" || !maps.Equal(spec.Settings, tt.want) {
				t.Errorf("settings %v (%s), want %v", spec.Settings, errs, tt.want)
			}
		})
	}
}

// TestHTTPRecordRoundTrip: a record with a number, a boolean and a map
// reads back as the settings written, and is accepted for its block.
func TestHTTPRecordRoundTrip(t *testing.T) {
	spec, errs := httpBlockSpec(t, `
address   = "http://s/x"
retry_max = 4
skip_cert_verification = false
headers   = { X-Team = "infra" }
`)
	if errs != "" {
		t.Fatal(errs)
	}
	withFlags, ds := applyBackendConfigFlags(spec, []string{"password=pw", "retry_wait_min=2"})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	withFlags = withFlags.withForm(withFlags.Form)
	d := New(t.TempDir(), Options{})
	if err := d.writeBackendRecord(withFlags); err != nil {
		t.Fatal(err)
	}
	got, ok, err := d.readBackendRecord()
	if err != nil || !ok {
		t.Fatalf("record: %v (found %v)", err, ok)
	}
	if d := cmp.Diff(withFlags.Settings, got.Settings); d != "" {
		t.Errorf("settings read back (-want +got):\n%s", d)
	}
	if form, ok := got.recordedFor(spec); !ok || form != hashOpenTofu {
		t.Errorf("recordedFor = %d, %v; want OpenTofu's form", form, ok)
	}
}

// TestHTTPBackendConfigFlags: -backend-config values are checked against
// the setting's type; a map comes from a file.
func TestHTTPBackendConfigFlags(t *testing.T) {
	spec, _ := httpBlockSpec(t, `address = "http://s/x"`)
	dir := t.TempDir()
	commandtest.WriteFile(t, dir, "extra.hcl", "headers = { X-A = \"1\" }\nretry_max = 0\n")
	got, ds := applyBackendConfigFlags(spec, []string{dir + "/extra.hcl", "skip_cert_verification=true"})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	want := map[string]string{"address": "http://s/x", "headers": `{"X-A":"1"}`, "retry_max": "0", "skip_cert_verification": "true"}
	if d := cmp.Diff(want, got.Settings); d != "" {
		t.Errorf("settings (-want +got):\n%s", d)
	}
	for flag, wantErr := range map[string]string{
		"retry_max=lots":               `The value for "retry_max" must be a number, not "lots".`,
		"headers=X-A:1":                `The value for "headers" must be a map of strings, given in a file of settings.`,
		"skip_cert_verification=maybe": `The value for "skip_cert_verification" must be a boolean, not "maybe".`,
	} {
		_, ds := applyBackendConfigFlags(spec, []string{flag})
		if !ds.HasErrors() || ds[0].Detail != wantErr {
			t.Errorf("%s: %v, want %q", flag, ds, wantErr)
		}
	}
}
