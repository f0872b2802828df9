package getproviders

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/getproviders/registrytest"
)

// TestInstallationMethods: the methods of a provider_installation block,
// each limited by its include and exclude patterns, serve the providers
// they match; a provider's versions are the union of its methods', its
// package comes from the first method that has the selected version.
func TestInstallationMethods(t *testing.T) {
	reg := registrytest.New(t, nil, append(randomReleases(),
		registrytest.Release{Namespace: "example", Type: "other", Version: "1.0.0", Platforms: testPlatforms})...)
	other := registryProvider(reg, "other")
	otherRel := registrytest.Release{Namespace: "example", Type: "other", Version: "3.0.0", Platforms: testPlatforms}
	mirrorReg := registrytest.New(t, nil, otherRel)
	mirror, _ := mirrorServer(t, mirrorReg, other, otherRel)

	fs := t.TempDir()
	for _, typ := range []string{"local", "random"} {
		dir := filepath.Join(fs, reg.Host, "example", typ, map[string]string{"local": "1.0.0", "random": "9.0.0"}[typ], "linux_amd64")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "terraform-provider-"+typ), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg, ds := ParseCLIConfig([]byte(fmt.Sprintf(`
provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["%s/example/local"]
  }
  network_mirror {
    url     = "%s"
    include = ["%s/example/other"]
  }
  direct {
    exclude = ["%s/example/other"]
  }
}
`, fs, reg.Host, mirror.URL, reg.Host, reg.Host)), "test.tfrc")
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	client := newTestClient(reg, nil)
	sources, ds := cfg.Sources(nil, client)
	if ds.HasErrors() || len(sources) != 3 {
		t.Fatalf("sources %v: %v", sources, ds.Err())
	}
	reqs := []Requirement{{Provider: registryProvider(reg, "local")}, {Provider: other}, {Provider: registryProvider(reg, "random")}}
	run := runInstall(t, sources, reqs, nil, nil)
	if run.ds.HasErrors() {
		t.Fatal(run.ds.Err())
	}
	var installed []string
	for _, line := range run.log {
		if strings.HasPrefix(line, "- Installed ") {
			installed = append(installed, strings.TrimPrefix(strings.ReplaceAll(line, reg.Host, "HOST"), "- Installed "))
		}
	}
	want := []string{
		"HOST/example/local v1.0.0 (unauthenticated)",
		"HOST/example/other v3.0.0 (verified checksum)",
		"HOST/example/random v2.0.0 (self-signed, key ID " + reg.Key.PrimaryKey.KeyIdString() + ")",
	}
	if diff := cmp.Diff(want, installed); diff != "" {
		t.Errorf("installed (-want +got):\n%s", diff)
	}
	for _, r := range reg.Requests() {
		if strings.Contains(r.Path, "/example/other/") {
			t.Errorf("the registry was asked for a provider its method excludes: %s", r.Path)
		}
	}
}
