package command

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

// withTestProvider makes p serve registry.terraform.io/hashicorp/test in
// every command until the test ends, as a development override would.
func withTestProvider(t *testing.T, p provider.Interface) {
	t.Helper()
	testFactories = provider.Factories{providertest.Address(): func() (provider.Interface, error) { return p, nil }}
	t.Cleanup(func() { testFactories = nil })
}

// thing returns a test_thing object with the given id and key, name and
// value ("" for null).
func thing(id, key, name, value string) cty.Value {
	str := func(s string) cty.Value {
		if s == "" {
			return cty.NullVal(cty.String)
		}
		return cty.StringVal(s)
	}
	return cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal(id), "key": str(key), "name": str(name), "value": str(value),
		"replace_key": cty.NullVal(cty.String), "output": str(value), "ref": cty.NullVal(cty.List(cty.String)),
	})
}

// vanishingProvider imports any ID, but reading the object back finds
// nothing: the object is gone by then.
type vanishingProvider struct{ *providertest.Provider }

func (vanishingProvider) ImportResourceState(_ context.Context, req provider.ImportRequest) provider.ImportResponse {
	return provider.ImportResponse{Imported: []provider.ImportedObject{{TypeName: req.TypeName, State: thing(req.ID, "", "", "")}}}
}

func (vanishingProvider) ReadResource(_ context.Context, req provider.ReadRequest) provider.ReadResponse {
	return provider.ReadResponse{NewState: cty.NullVal(req.PriorState.Type())}
}

// sensitiveProvider is providertest's provider with a sensitive value attribute.
type sensitiveProvider struct{ *providertest.Provider }

func (p sensitiveProvider) GetProviderSchema(ctx context.Context) (*provider.Schemas, diag.Diagnostics) {
	s, ds := p.Provider.GetProviderSchema(ctx)
	for name, sch := range s.ResourceTypes {
		attrs := make(map[string]*provider.Attribute, len(sch.Block.Attributes))
		for n, a := range sch.Block.Attributes {
			attrs[n] = a
		}
		value := *attrs["value"]
		value.Sensitive = true
		attrs["value"] = &value
		s.ResourceTypes[name] = provider.Schema{Version: sch.Version, Block: &provider.Block{Attributes: attrs}}
	}
	return s, ds
}

const importConfig = `
variable "name" {}

resource "terraform_data" "a" {
  input = var.name
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
  lifecycle {
    create_before_destroy = true
  }
}
`

// TestImportTerraformData imports into terraform_data (the built-in
// import sets only id), with variables from -var and -var-file, and checks
// the output and what the state records: the new objects with the
// provider, schema version, dependencies and create_before_destroy (b's
// own, inherited by a) the configuration gives them, through the same
// writer as apply (serial, lineage, backup).
func TestImportTerraformData(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": importConfig, "name.tfvars": `name = "x"`})
	r := rig(t, dir, "import", "-input=false", "-var=name=x", "terraform_data.b", "id-b")
	if r.code != 0 {
		t.Fatalf("import b: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "import/terraform-data-color", r.stdout)
	sf, _ := readStateFile(t, dir)
	lineage := sf.Lineage
	if sf.Serial != 1 || len(sf.Resources) != 1 {
		t.Fatalf("after the first import: serial %d, %d resources; want 1, 1", sf.Serial, len(sf.Resources))
	}

	r = rig(t, dir, "import", "-input=false", "-no-color", "-var-file=name.tfvars", "terraform_data.a", "id-a")
	if r.code != 0 {
		t.Fatalf("import a: exit %d\n%s", r.code, r.stderr)
	}
	golden(t, "import/terraform-data", r.stdout)
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
	sf, _ = readStateFile(t, dir)
	if sf.Serial != 2 || sf.Lineage != lineage {
		t.Errorf("serial %d, lineage %s; want 2 and the lineage %s kept", sf.Serial, sf.Lineage, lineage)
	}
	type inst struct {
		Provider            string
		Attributes          string
		SchemaVersion       int
		Dependencies        []string
		CreateBeforeDestroy bool
	}
	got := map[string]inst{}
	for _, res := range sf.Resources {
		for _, i := range res.Instances {
			got[res.Type+"."+res.Name] = inst{res.Provider, compactJSON(i.Attributes), *i.SchemaVersion, i.Dependencies, i.CreateBeforeDestroy}
		}
	}
	want := map[string]inst{
		"terraform_data.a": {`provider["terraform.io/builtin/terraform"]`, `{"id":"id-a","input":null,"output":null,"triggers_replace":null}`, 0, nil, true},
		"terraform_data.b": {`provider["terraform.io/builtin/terraform"]`, `{"id":"id-b","input":null,"output":null,"triggers_replace":null}`, 0, []string{"terraform_data.a"}, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
	backup, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate.backup"))
	if err != nil || !strings.Contains(string(backup), `"serial": 1,`) {
		t.Errorf("backup: want the state of serial 1, got %v\n%s", err, backup)
	}

	// The imported objects are managed: a plan updates them to match the
	// configuration, and applying it makes a no-op plan.
	r = rig(t, dir, "plan", "-input=false", "-no-color", "-detailed-exitcode", "-var=name=x")
	if r.code != 2 || !strings.Contains(r.stdout, "Plan: 0 to add, 2 to change, 0 to destroy.") {
		t.Fatalf("plan after import: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "apply", "-input=false", "-no-color", "-auto-approve", "-var=name=x"); r.code != 0 {
		t.Fatalf("apply: %s", r.stderr)
	}
	if r := rig(t, dir, "plan", "-input=false", "-no-color", "-detailed-exitcode", "-var=name=x"); r.code != 0 {
		t.Errorf("plan after apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

const importTestConfig = `
terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}

resource "test_thing" "x" {
  key   = "k"
  name  = "n"
  value = "v"
}

resource "test_thing" "many" {
  count = 2
  key   = "many${count.index}"
}

resource "test_other" "y" {
  ref = [test_thing.x.id]
}
`

// TestImportTestProvider imports objects of the recording test provider by
// id (one of a counted resource too) and checks that the state holds what
// the provider read back, with the schema's sensitive attributes, and that
// the next plan leaves them alone.
func TestImportTestProvider(t *testing.T) {
	live := providertest.New()
	withTestProvider(t, sensitiveProvider{live})
	for _, obj := range []cty.Value{thing("id-7", "k", "n", "v"), thing("id-8", "many1", "", "")} {
		if err := live.AddLive(providertest.ThingType, obj); err != nil {
			t.Fatal(err)
		}
	}
	dir := workDir(t, map[string]string{"main.tf": importTestConfig})
	for _, args := range [][]string{{"test_thing.x", "id-7"}, {"test_thing.many[1]", "id-8"}} {
		r := rig(t, dir, append([]string{"import", "-input=false", "-no-color"}, args...)...)
		if r.code != 0 || !strings.Contains(r.stdout, args[0]+`: Refreshing state... [id=`+args[1]+`]`) {
			t.Fatalf("import %s: exit %d\n%s%s", args[0], r.code, r.stdout, r.stderr)
		}
	}
	s := readRealState(t, dir)
	x, prov := s.instance(t, "managed.test_thing.x")
	if prov != `provider["registry.terraform.io/hashicorp/test"]` {
		t.Errorf("provider = %s", prov)
	}
	for field, want := range map[string]string{
		"attributes":           `{"id":"id-7","key":"k","name":"n","output":"v","ref":null,"replace_key":null,"value":"v"}`,
		"schema_version":       `0`,
		"sensitive_attributes": `[[{"type":"get_attr","value":"value"}]]`,
	} {
		if got := compactJSON(x[field]); got != want {
			t.Errorf("test_thing.x %s = %s, want %s", field, got, want)
		}
	}
	many, _ := s.instance(t, "managed.test_thing.many")
	if got := compactJSON(many["index_key"]); got != "1" {
		t.Errorf("test_thing.many index_key = %s, want 1", got)
	}

	r := rig(t, dir, "plan", "-input=false", "-no-color", "-detailed-exitcode")
	if r.code != 2 || !strings.Contains(r.stdout, "Plan: 2 to add, 0 to change, 0 to destroy.") ||
		strings.Contains(r.stdout, "test_thing.x will") || strings.Contains(r.stdout, "test_thing.many[1] will") {
		t.Errorf("plan after import: exit %d, want test_thing.many[0] and test_other.y created, nothing else\n%s%s", r.code, r.stdout, r.stderr)
	}
	if ops := live.Ops(); len(ops) != 0 {
		t.Errorf("import changed remote objects: %v", ops)
	}
}

// TestImportErrors checks each way an import is refused: it exits 1 with
// the diagnostic and leaves the state as it was.
func TestImportErrors(t *testing.T) {
	tests := []struct {
		name     string
		config   string
		provider provider.Interface // serves hashicorp/test; nil for none
		applied  bool               // apply the configuration first
		args     []string
		want     string
		golden   string
	}{
		{name: "not in configuration", config: importConfig, args: []string{"-var=name=x", "terraform_data.c", "id-c"},
			want: "Error: resource address \"terraform_data.c\" does not exist in the configuration.", golden: "import/not-declared"},
		{name: "already managed", config: importConfig, applied: true, args: []string{"-var=name=x", "terraform_data.a", "id-a"},
			want: "Error: Resource already managed by rig", golden: "import/already-managed"},
		{name: "data resource", config: importConfig, args: []string{"data.terraform_data.a", "id-a"},
			want: "Error: Invalid target resource address"},
		{name: "bad address", config: importConfig, args: []string{"terraform_data", "id-a"},
			want: "Error: Invalid resource address"},
		{name: "one argument", config: importConfig, args: []string{"terraform_data.a"},
			want: "The import command expects two arguments"},
		{name: "required variable unset", config: importConfig, args: []string{"terraform_data.a", "id-a"},
			want: `Error: No value for required variable`},
		{name: "no such remote object", config: importTestConfig, provider: providertest.New(), args: []string{"test_thing.x", "id-9"},
			want: "Error: Cannot import non-existent remote object"},
		{name: "read back finds nothing", config: importTestConfig, provider: vanishingProvider{providertest.New()}, args: []string{"test_thing.x", "id-9"},
			want: "Error: Cannot import non-existent remote object", golden: "import/vanished"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.provider != nil {
				withTestProvider(t, tt.provider)
			}
			dir := workDir(t, map[string]string{"main.tf": tt.config})
			if tt.applied {
				if r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color", "-var=name=x"); r.code != 0 {
					t.Fatalf("apply: %s", r.stderr)
				}
			}
			before, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
			r := rig(t, dir, append([]string{"import", "-input=false", "-no-color"}, tt.args...)...)
			if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
				t.Fatalf("exit %d, want 1 and %q\n%s%s", r.code, tt.want, r.stdout, r.stderr)
			}
			if tt.golden != "" {
				golden(t, tt.golden, r.stderr)
			}
			after, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
			if !bytes.Equal(before, after) {
				t.Errorf("the state changed:\n%s", after)
			}
			if _, err := os.Stat(filepath.Join(dir, ".terraform.tfstate.lock.info")); err == nil {
				t.Error("lock left behind")
			}
		})
	}
}

// TestImportLock checks that import takes the state lock: it fails at once
// while another run holds it, waits with -lock-timeout, and goes ahead
// with -lock=false.
func TestImportLock(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": importConfig})
	_, unlock := holdLocalLock(t, dir)
	r := rig(t, dir, "import", "-input=false", "-no-color", "-var=name=x", "terraform_data.a", "id-a")
	if r.code != 1 || !strings.Contains(r.stderr, "Error acquiring the state lock") || !strings.Contains(r.stderr, "alice@build-host") {
		t.Fatalf("locked import: exit %d, want 1 naming the holder\n%s", r.code, r.stderr)
	}
	// The holder's lock keeps an empty state file, as Terraform's does:
	// no state was written.
	if data, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate")); err == nil && len(data) > 0 {
		t.Fatalf("locked import wrote a state:\n%s", data)
	}
	if r := rig(t, dir, "import", "-input=false", "-no-color", "-lock=false", "-var=name=x", "terraform_data.a", "id-a"); r.code != 0 {
		t.Fatalf("import -lock=false: exit %d\n%s", r.code, r.stderr)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		unlock()
	}()
	r = rig(t, dir, "import", "-input=false", "-no-color", "-lock-timeout=30s", "-var=name=x", "terraform_data.b", "id-b")
	if r.code != 0 || !strings.Contains(r.stdout, "Import successful!") {
		t.Fatalf("import -lock-timeout: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var s struct {
		Resources []json.RawMessage `json:"resources"`
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err := json.Unmarshal(raw, &s); err != nil || len(s.Resources) != 2 {
		t.Errorf("state after both imports: %v\n%s", err, raw)
	}
}

// TestImportAsksForVariables checks that import asks for a required
// variable without a value, unless -input=false.
func TestImportAsksForVariables(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": importConfig})
	r := rigInput(t, dir, "x\n", "import", "-no-color", "terraform_data.a", "id-a")
	if r.code != 0 || !strings.Contains(r.stdout, "var.name") || !strings.Contains(r.stdout, "Import successful!") {
		t.Fatalf("import with input: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
