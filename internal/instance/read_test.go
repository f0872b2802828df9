package instance_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/instance"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// reader answers the reads of a data source and of an imported object;
// any other call panics.
type reader struct {
	provider.Interface
	data provider.ReadDataResponse
	read provider.ReadResponse
	// gotConfig is the configuration ReadDataSource was sent.
	gotConfig cty.Value
}

func (r *reader) ReadDataSource(_ context.Context, req provider.ReadDataRequest) provider.ReadDataResponse {
	r.gotConfig = req.Config
	return r.data
}

func (r *reader) ReadResource(context.Context, provider.ReadRequest) provider.ReadResponse {
	return r.read
}

var sourceSchema = provider.Schema{Block: &provider.Block{Attributes: map[string]*provider.Attribute{
	"name":   {Type: cty.String, Required: true},
	"secret": {Type: cty.String, Computed: true, Sensitive: true},
	"value":  {Type: cty.String, Computed: true},
}}}

// loadSource loads data.test_source.a of src, evaluated.
func loadSource(t *testing.T, src string) (*config.Resource, instance.Config) {
	t.Helper()
	cfg, ds := config.LoadTreeFS(fstest.MapFS{"main.tf": {Data: []byte(src)}}, config.TreeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	ev, ds := eval.New(context.Background(), eval.Options{Config: cfg, Variables: map[string]cty.Value{"name": cty.StringVal("n").Mark(lang.Sensitive)}})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	r := cfg.ConfigResource(addrs.ConfigResource{Resource: sourceA.Resource.Resource})
	if r == nil {
		t.Fatal("no data.test_source.a in the configuration")
	}
	c, ds := instance.EvalConfig(ev.Scope(addrs.RootModule, lang.InstanceData{}), r, sourceSchema, testPC)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return r, c
}

var sourceA = addrs.AbsResourceInstance{Resource: addrs.ResourceInstance{
	Resource: addrs.Resource{Mode: addrs.Data, Type: "test_source", Name: "a"}}}

func source(name, secret, value string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "secret": cty.StringVal(secret), "value": cty.StringVal(value)})
}

func TestReadDataMarksWhatIsSensitive(t *testing.T) {
	r, cfg := loadSource(t, `
variable "name" {
  sensitive = true
}
data "test_source" "a" {
  name = var.name
}
`)
	prov := &reader{data: provider.ReadDataResponse{State: source("n", "s", "v")}}
	got, ds := instance.ReadData(context.Background(), instance.ReadRequest{Addr: sourceA, Resource: r, Schema: sourceSchema, Provider: prov, Config: cfg})
	if ds.HasErrors() || got.CheckFailed {
		t.Fatalf("ReadData failed: %v (check failed %v)", ds.Err(), got.CheckFailed)
	}
	// The configuration's sensitive name and the schema's secret are
	// marked; the value the provider computed is not.
	for attr, want := range map[string]bool{"name": true, "secret": true, "value": false} {
		if sens := marks.Contains(got.Value.GetAttr(attr)); sens != want {
			t.Errorf("%s sensitive = %v, want %v", attr, sens, want)
		}
	}
	// The provider was sent the configuration with its marks (the
	// built-in terraform_remote_state keeps them; plugins drop them).
	if !marks.Contains(prov.gotConfig.GetAttr("name")) {
		t.Error("the configuration sent to the provider lost its sensitive mark")
	}
}

func TestReadDataFailures(t *testing.T) {
	tests := []struct {
		name           string
		src            string
		wantSeverity   diag.Severity
		wantCheckFails bool
	}{
		{"a data source", `data "test_source" "a" { name = "n" }`, diag.Error, false},
		{"a check block's scoped data source", `
check "c" {
  data "test_source" "a" { name = "n" }
  assert {
    condition     = data.test_source.a.value == "v"
    error_message = "wrong"
  }
}`, diag.Warning, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, cfg := loadSource(t, tt.src)
			prov := &reader{data: provider.ReadDataResponse{Diagnostics: diag.Diagnostics{diag.Errorf("API down", "the read failed")}}}
			got, ds := instance.ReadData(context.Background(), instance.ReadRequest{Addr: sourceA, Resource: r, Schema: sourceSchema, Provider: prov, Config: cfg})
			if len(ds) != 1 {
				t.Fatalf("diagnostics = %v, want the provider's one", ds)
			}
			if ds[0].Severity != tt.wantSeverity || ds[0].Address != "data.test_source.a" {
				t.Errorf("diagnostic = %s about %q, want %s about data.test_source.a", ds[0].Severity, ds[0].Address, tt.wantSeverity)
			}
			if got.CheckFailed != tt.wantCheckFails || got.Value != cty.NilVal {
				t.Errorf("read = %#v, want no value and CheckFailed %v", got, tt.wantCheckFails)
			}
		})
	}
}

// noHooks observes nothing.
type noHooks struct{}

func (noHooks) PreRefresh(addrs.ObjectAddr, cty.Value)  {}
func (noHooks) PostRefresh(addrs.ObjectAddr, cty.Value) {}

func TestReadImported(t *testing.T) {
	f := load(t, `resource "test_thing" "a" {}`)
	imported := provider.ImportedObject{TypeName: "test_thing", State: thing("i-1", "", "", ""), Private: []byte("p0")}
	blockRange := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 3, Column: 1}}
	tests := []struct {
		name        string
		read        provider.ReadResponse
		subject     *hcl.Range
		wantSummary string // "" when the read succeeds
	}{
		{"read back", provider.ReadResponse{NewState: thing("i-1", "k", "v", ""), Private: []byte("p1")}, nil, ""},
		{"gone, from the command line", provider.ReadResponse{NewState: cty.NullVal(thing("", "", "", "").Type())}, nil, "Cannot import non-existent remote object"},
		{"gone, from an import block", provider.ReadResponse{NewState: cty.NullVal(thing("", "", "", "").Type())}, &blockRange, "Cannot import non-existent remote object"},
		{"read failed", provider.ReadResponse{Diagnostics: diag.Diagnostics{diag.Errorf("API down", "x")}}, nil, "API down"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ds := instance.ReadImported(context.Background(), instance.ImportReadRequest{
				Addr: thingA, Object: imported, Provider: &reader{read: tt.read}, ProviderConfig: testPC,
				Eval: f.eval, Hooks: noHooks{}, Subject: tt.subject,
			})
			if tt.wantSummary == "" {
				if ds.HasErrors() {
					t.Fatal(ds.Err())
				}
				if !got.Value.RawEquals(tt.read.NewState) || string(got.Private) != "p1" {
					t.Errorf("imported = %#v, %q; want what the read returned", got.Value, got.Private)
				}
				obj, err := instance.ImportedObject(testPC, thingA, providertest.ThingSchema(), got)
				if err != nil || string(obj.Private) != "p1" {
					t.Errorf("state object = %v, %v; want one with the read's private data", obj, err)
				}
				return
			}
			if len(ds) != 1 || ds[0].Summary != tt.wantSummary {
				t.Fatalf("diagnostics = %v, want one %q", ds, tt.wantSummary)
			}
			if !strings.Contains(ds[0].Address+ds[0].Detail, "test_thing.a") {
				t.Errorf("diagnostic %v does not name test_thing.a", ds[0])
			}
			if (ds[0].Subject != nil) != (tt.subject != nil) {
				t.Errorf("diagnostic subject = %v, want %v", ds[0].Subject, tt.subject)
			}
		})
	}
}
