package statefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/state"
)

// TestParseLegacyVersions reads the state formats written by Terraform 0.11
// and earlier (testdata/legacy/vN.tfstate), which are upgraded to version
// 4 as they are read, and compares the state they become, as rig writes
// it, with vN.golden; -update rewrites those.
func TestParseLegacyVersions(t *testing.T) {
	files, err := filepath.Glob("testdata/legacy/v*.tfstate")
	if err != nil || len(files) != 3 {
		t.Fatalf("fixtures %v: %v", files, err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s := readFixture(t, path)
			got, err := Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, strings.TrimSuffix(path, ".tfstate")+".golden", got)
			if _, err := Parse(got); err != nil {
				t.Errorf("Parse(Marshal(upgraded)): %v", err)
			}
		})
	}
}

// TestParseLegacyObjects checks what a user relies on in an upgraded
// version 3 state object by object: addresses, providers in the legacy
// namespace, tainted and deposed objects, schema versions and attributes
// left flattened for the provider to upgrade.
func TestParseLegacyObjects(t *testing.T) {
	s := readFixture(t, "testdata/legacy/v3.tfstate")
	legacy := func(typ string) addrs.Provider {
		return addrs.Provider{Hostname: "registry.terraform.io", Namespace: "-", Type: typ}
	}
	web := addrs.Resource{Mode: addrs.Managed, Type: "example_server", Name: "web"}.Absolute(addrs.RootModule)
	worker := addrs.Resource{Mode: addrs.Managed, Type: "example_server", Name: "worker"}.Absolute(addrs.RootModule)
	image := addrs.Resource{Mode: addrs.Data, Type: "example_image", Name: "base"}.Absolute(addrs.RootModule)
	other := addrs.Resource{Mode: addrs.Managed, Type: "example_network", Name: "other"}.Absolute("module.net")
	if s.Serial != 7 || s.Lineage != "1f0e4c5a-3b2d-4c1e-9a8f-2b7d6e5c4a31" || len(s.Resources) != 5 {
		t.Fatalf("serial %d lineage %q, %d resources", s.Serial, s.Lineage, len(s.Resources))
	}
	for addr, want := range map[addrs.AbsResource]addrs.AbsProviderConfig{
		web:    {Provider: legacy("example")},
		worker: {Provider: legacy("example"), Alias: "east"},
		image:  {Provider: legacy("example")},
		other:  {Module: "module.net", Provider: legacy("example"), Alias: "west"},
	} {
		if got := s.Resources[addr].ProviderConfig; got != want {
			t.Errorf("%s: provider %s, want %s", addr, got, want)
		}
	}
	inst := s.Resources[web].Instances[addrs.NoKey]
	if inst.Current.SchemaVersion != 1 || inst.Current.AttrsFlat["tags.env"] != "prod" || len(inst.Deposed) != 1 || inst.Deposed["00000001"] == nil {
		t.Errorf("%s: %+v, deposed %v", web, inst.Current, inst.Deposed)
	}
	if got := string(inst.Current.Private); got != `{"e2bfb730-ecaa-11e6-8f88-34363bc7c4c0":{"create":600000000000}}` {
		t.Errorf("%s: private %s", web, got)
	}
	w0 := s.Resources[worker].Instances[addrs.IntKey(0)].Current
	if w0.Status != state.Tainted || w0.AttrsFlat["id"] != "srv-2" {
		t.Errorf("%s[0]: status %v, attributes %v; want tainted with the id the object recorded", worker, w0.Status, w0.AttrsFlat)
	}
	if got := s.Resources[worker].Instances[addrs.IntKey(1)].Current.SchemaVersion; got != 1 {
		t.Errorf("%s[1]: schema version %d, want 1", worker, got)
	}
	if o := s.Outputs["tags"]; !o.Sensitive || !o.Value.Type().IsMapType() {
		t.Errorf("output tags: %#v", o)
	}
	if _, ok := s.Outputs["subnet"]; ok {
		t.Errorf("a child module's output was kept")
	}
}

func readFixture(t *testing.T, path string) *state.State {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data)
	if err != nil {
		t.Fatalf("Parse %s: %v", path, err)
	}
	return s
}

// TestParseLegacyProviderAddresses: a version 4 state names a provider of
// the legacy namespace as Terraform 0.12 wrote it (provider.aws), as
// Terraform 0.13 did (under registry.terraform.io) or as OpenTofu does
// after upgrading an older state (under registry.opentofu.org); rig reads
// them all, and writes the first in the canonical form.
func TestParseLegacyProviderAddresses(t *testing.T) {
	const head = `{"version":4,"terraform_version":"0.12.28","serial":1,"lineage":"l","outputs":{},"resources":[`
	res := func(module, provider string) string {
		return `{"module":"` + module + `","mode":"managed","type":"alpha_thing","name":"a","provider":` + provider + `,"instances":[{"schema_version":0,"attributes":{"id":"a"}}]}`
	}
	legacy := func(host string) addrs.Provider { return addrs.Provider{Hostname: host, Namespace: "-", Type: "alpha"} }
	tests := []struct {
		name, module, provider string
		want                   addrs.AbsProviderConfig
		written                string
	}{
		{"Terraform 0.12", "", `"provider.alpha"`, addrs.AbsProviderConfig{Provider: legacy("registry.terraform.io")}, `provider[\"registry.terraform.io/-/alpha\"]`},
		{"Terraform 0.12 in a module with an alias", "module.m", `"module.m.provider.alpha.west"`, addrs.AbsProviderConfig{Module: "module.m", Provider: legacy("registry.terraform.io"), Alias: "west"}, `module.m.provider[\"registry.terraform.io/-/alpha\"].west`},
		{"Terraform 0.13", "", `"provider[\"registry.terraform.io/-/alpha\"]"`, addrs.AbsProviderConfig{Provider: legacy("registry.terraform.io")}, `provider[\"registry.terraform.io/-/alpha\"]`},
		{"OpenTofu", "", `"provider[\"registry.opentofu.org/-/alpha\"]"`, addrs.AbsProviderConfig{Provider: legacy("registry.opentofu.org")}, `provider[\"registry.opentofu.org/-/alpha\"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(head + res(tt.module, tt.provider) + `]}`))
			if err != nil {
				t.Fatal(err)
			}
			addr := addrs.Resource{Mode: addrs.Managed, Type: "alpha_thing", Name: "a"}.Absolute(addrs.ModuleInstance(tt.module))
			if got := s.Resources[addr].ProviderConfig; got != tt.want {
				t.Errorf("provider %s, want %s", got, tt.want)
			}
			out, err := Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), `"provider": "`+tt.written+`"`) {
				t.Errorf("written:\n%s\nwant provider %s", out, tt.written)
			}
		})
	}
	if _, err := Parse([]byte(head + res("", `"provider.${var.x}"`) + `]}`)); err == nil {
		t.Errorf("an invalid legacy provider address was accepted")
	}
}
