package explain

import (
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
)

// TestSourcesOfProviderDependencies checks that a resource's dependency
// through the provider block that configures it is shown where the block
// refers to it, directly or through a local value.
func TestSourcesOfProviderDependencies(t *testing.T) {
	src := `
resource "test_thing" "region" {}
resource "test_thing" "zone" {}
locals {
  zone = test_thing.zone.id
}
provider "test" {
  alias  = "eu"
  region = "${test_thing.region.output}-${local.zone}"
}
resource "test_thing" "a" {
  provider = test.eu
}
`
	cfg, ds := config.LoadTreeFS(fstest.MapFS{"main.tf": {Data: []byte(src)}}, config.TreeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	thing := func(name string) addrs.AbsResource {
		return addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: name}.Absolute(addrs.RootModule)
	}
	s := newSources(cfg)
	for dep, want := range map[string][]string{
		"region": {"provider configuration: test_thing.region (line 9)"},
		"zone":   {"provider configuration through local.zone: local.zone (line 9)"},
	} {
		var got []string
		for _, f := range s.references(thing("a"), thing(dep)) {
			got = append(got, f.What+": "+f.Text+" (line "+strconv.Itoa(f.Range.Start.Line)+")")
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("sources of test_thing.a's dependency on test_thing.%s (-want +got):\n%s", dep, diff)
		}
	}
}
