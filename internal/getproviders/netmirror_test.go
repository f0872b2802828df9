package getproviders

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/getproviders/registrytest"
)

// mirrorServer serves a network mirror written by WriteMirrorArchive and
// WriteMirrorIndex from the packages of reg.
func mirrorServer(t *testing.T, reg *registrytest.Registry, p addrs.Provider, rels ...registrytest.Release) (*httptest.Server, string) {
	t.Helper()
	dir := t.TempDir()
	for _, rel := range rels {
		for _, pl := range rel.Platforms {
			zipPath := filepath.Join(t.TempDir(), "p.zip")
			if err := os.WriteFile(zipPath, reg.Zip(rel, pl), 0o644); err != nil {
				t.Fatal(err)
			}
			os, arch, _ := strings.Cut(pl, "_")
			if _, err := WriteMirrorArchive(dir, Package{Provider: p, Version: mustVersion(t, rel.Version), Platform: Platform{os, arch}, Kind: PackageZip, Location: zipPath}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := WriteMirrorIndex(dir, p); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv, dir
}

// TestNetworkMirror installs from a network mirror that `providers mirror`
// wrote, checks the archive against the mirror's hashes, and refuses one
// that does not match.
func TestNetworkMirror(t *testing.T) {
	reg := registrytest.New(t, nil, randomReleases()...)
	p := addrs.NewDefaultProvider("random").WithHostname("registry.terraform.io")
	p.Namespace = "example"
	rels := randomReleases()[:2]
	srv, dir := mirrorServer(t, reg, p, rels...)
	u, _ := url.Parse(srv.URL + "/")
	// The lock is recorded under OpenTofu's host: the mirror's Terraform
	// layout serves it too.
	tofu := p.WithHostname(addrs.OpenTofuRegistryHost)
	sources := []SourceEntry{{Source: NetworkMirror{URL: u, Client: &Client{HTTP: srv.Client()}}}}
	run := runInstall(t, sources, []Requirement{{Provider: tofu}}, nil, nil)
	if run.ds.HasErrors() {
		t.Fatal(run.ds.Err())
	}
	if !slices.Contains(run.log, "- Installed example/random v1.1.0 (verified checksum)") {
		t.Errorf("log:\n%s", strings.Join(run.log, "\n"))
	}
	h1, _ := HashDir(PackageDir(run.dir, tofu, mustVersion(t, "1.1.0"), Platform{"linux", "amd64"}))
	if diff := cmp.Diff([]string{h1}, run.locks.Get(tofu).Hashes); diff != "" {
		t.Errorf("lock hashes (-want +got):\n%s", diff)
	}

	// An archive replaced on the mirror no longer matches its hashes.
	zipPath := filepath.Join(dir, p.Hostname, p.Namespace, p.Type, "terraform-provider-random_1.1.0_linux_amd64.zip")
	if err := os.WriteFile(zipPath, reg.Zip(rels[0], "linux_amd64"), 0o644); err != nil {
		t.Fatal(err)
	}
	run = runInstall(t, sources, []Requirement{{Provider: tofu}}, nil, nil)
	if !run.ds.HasErrors() || !strings.Contains(run.ds.Err().Error(), "terraform-provider-random_1.1.0_linux_amd64.zip does not match any of the checksums the mirror lists") {
		t.Errorf("a replaced archive: %v", run.ds.Err())
	}
}
