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
