package getproviders

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/getproviders/registrytest"
)

// TestRegistryRetries: 429 and 5xx answers are retried with a backoff,
// up to MaxAttempts; a 4xx other than 429 is not.
func TestRegistryRetries(t *testing.T) {
	tests := []struct {
		name     string
		failures int
		status   int
		wantOK   bool
		wantWait int32
	}{
		{name: "two 503s then success", failures: 2, status: http.StatusServiceUnavailable, wantOK: true, wantWait: 2},
		{name: "a 429 then success", failures: 1, status: http.StatusTooManyRequests, wantOK: true, wantWait: 1},
		{name: "503 four times", failures: 4, status: http.StatusServiceUnavailable, wantWait: 3},
		{name: "403 is not retried", failures: 1, status: http.StatusForbidden, wantWait: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := registrytest.New(t, nil, randomReleases()...)
			var failed atomic.Int32
			reg.Set(t, registrytest.Options{Hook: func(w http.ResponseWriter, r *http.Request) bool {
				// Every request type fails its first attempts: the zip's too.
				if strings.HasSuffix(r.URL.Path, "/versions") && failed.Load() < int32(tc.failures) {
					failed.Add(1)
					http.Error(w, "busy", tc.status)
					return true
				}
				return false
			}})
			var waits atomic.Int32
			p := registryProvider(reg, "random")
			run := runInstall(t, []SourceEntry{{Source: RegistrySource{Client: newTestClient(reg, &waits)}}}, []Requirement{{Provider: p}}, nil, nil)
			if got := !run.ds.HasErrors(); got != tc.wantOK {
				t.Fatalf("install ok = %v, want %v: %v", got, tc.wantOK, run.ds.Err())
			}
			if waits.Load() != tc.wantWait {
				t.Errorf("backoffs = %d, want %d", waits.Load(), tc.wantWait)
			}
		})
	}
}

// TestRegistryDown: a registry nobody answers at is an error naming the
// host and the provider, after the retries.
func TestRegistryDown(t *testing.T) {
	reg := registrytest.New(t, nil, randomReleases()...)
	client := newTestClient(reg, nil)
	p := registryProvider(reg, "random")
	reg.Server.Close()
	run := runInstall(t, []SourceEntry{{Source: RegistrySource{Client: client}}}, []Requirement{{Provider: p}}, nil, nil)
	if !run.ds.HasErrors() {
		t.Fatal("install from a closed server succeeded")
	}
	msg := run.ds.Err().Error()
	for _, want := range []string{"Could not retrieve the list of available versions for provider " + p.String(), "failed to discover the services of host " + reg.Host, "gave up after 4 attempts"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not contain %q:\n%s", want, msg)
		}
	}
}

// TestRegistryNoKeys: a registry offering no key leaves the signature
// unchecked, says so, and still checks SHA256SUMS.
func TestRegistryNoKeys(t *testing.T) {
	reg := registrytest.New(t, nil, randomReleases()...)
	reg.Set(t, registrytest.Options{NoKeys: true})
	p := registryProvider(reg, "random")
	sources := []SourceEntry{{Source: RegistrySource{Client: newTestClient(reg, nil)}}}
	run := runInstall(t, sources, []Requirement{{Provider: p}}, nil, nil)
	if run.ds.HasErrors() {
		t.Fatal(run.ds.Err())
	}
	want := fmt.Sprintf("- Installed %s v2.0.0. Signature validation was skipped due to the registry not containing GPG keys for this provider", p)
	if !slices.Contains(run.log, want) {
		t.Errorf("log does not have %q:\n%s", want, strings.Join(run.log, "\n"))
	}
	if got := len(run.locks.Get(p).Hashes); got != 1+len(testPlatforms) {
		t.Errorf("lock has %d hashes, want h1: and a zh: per platform", got)
	}
	reg.Set(t, registrytest.Options{NoKeys: true, TamperZip: true})
	if run := runInstall(t, sources, []Requirement{{Provider: p}}, nil, nil); !run.ds.HasErrors() {
		t.Error("a tampered zip was installed without keys")
	}
}

// TestRegistryCredentials: a host's token goes to that host's registry
// API (even at the address a host block gives it), never to another
// registry, and to a download only on the token's own host.
func TestRegistryCredentials(t *testing.T) {
	a := registrytest.New(t, nil, randomReleases()...)
	b := registrytest.New(t, nil, registrytest.Release{Namespace: "example", Type: "other", Version: "1.0.0", Platforms: testPlatforms})
	c := registrytest.New(t, nil, registrytest.Release{Namespace: "example", Type: "aliased", Version: "1.0.0", Platforms: testPlatforms})
	client := newTestClient(a, nil)
	client.Services = map[string]map[string]string{"registry.example.com": {"providers.v1": c.Server.URL + "/v1/providers/"}}
	client.Credentials = NewCredentials(map[string]string{a.Host: "token-a"}, []string{"TF_TOKEN_registry_example_com=token-c"})
	reqs := []Requirement{
		{Provider: registryProvider(a, "random")},
		{Provider: registryProvider(b, "other")},
		{Provider: addrs.Provider{Hostname: "registry.example.com", Namespace: "example", Type: "aliased"}},
	}
	run := runInstall(t, []SourceEntry{{Source: RegistrySource{Client: client}}}, reqs, nil, nil)
	if run.ds.HasErrors() {
		t.Fatal(run.ds.Err())
	}
	check := func(name string, reg *registrytest.Registry, want func(path string) string) {
		t.Helper()
		if len(reg.Requests()) == 0 {
			t.Errorf("%s: no requests", name)
		}
		for _, r := range reg.Requests() {
			if w := want(r.Path); r.Authorization != w {
				t.Errorf("%s: %s had Authorization %q, want %q", name, r.Path, r.Authorization, w)
			}
		}
	}
	check("registry a", a, func(string) string { return "Bearer token-a" })
	check("registry b", b, func(string) string { return "" })
	check("registry.example.com at c", c, func(path string) string {
		if strings.HasPrefix(path, "/v1/providers/") {
			return "Bearer token-c"
		}
		return "" // downloads from c's own host, which has no credentials
	})
}

func TestTokenEnvHost(t *testing.T) {
	tests := map[string]string{
		"TF_TOKEN_app_terraform_io":     "app.terraform.io",
		"TF_TOKEN_registry__corp_co_uk": "registry-corp.co.uk",
		"TF_TOKEN_A_B":                  "a.b",
	}
	for name, want := range tests {
		if got, ok := tokenEnvHost(name); !ok || got != want {
			t.Errorf("tokenEnvHost(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	creds := NewCredentials(map[string]string{"App.Terraform.io": "from-file", "other.io": "file-only"}, []string{"TF_TOKEN_app_terraform_io=from-env", "PATH=/bin"})
	if got := creds.Token("app.terraform.io"); got != "from-env" {
		t.Errorf("an environment variable does not win over a block: %q", got)
	}
	if got := creds.Token("OTHER.io"); got != "file-only" {
		t.Errorf("Token(OTHER.io) = %q", got)
	}
	if got := creds.Token("nobody.io"); got != "" {
		t.Errorf("Token(nobody.io) = %q", got)
	}
}

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

// TestRegistryPluginCache: a downloaded package is unpacked into the
// plugin cache and linked from there; another directory whose lock trusts
// it takes it from the cache without downloading; a provider not locked
// yet is downloaded again unless the cache may break the lock file.
func TestRegistryPluginCache(t *testing.T) {
	reg := registrytest.New(t, nil, randomReleases()...)
	p := registryProvider(reg, "random")
	cache := t.TempDir()
	sources := []SourceEntry{{Source: RegistrySource{Client: newTestClient(reg, nil)}}}
	withCache := func(mayBreak bool) func(*Installer) {
		return func(i *Installer) { i.CacheDir, i.CacheMayBreakLock = cache, mayBreak }
	}
	downloads := func() int {
		n := 0
		for _, r := range reg.Requests() {
			if strings.HasSuffix(r.Path, ".zip") {
				n++
			}
		}
		return n
	}
	reqs := []Requirement{{Provider: p}}
	first := runInstall(t, sources, reqs, nil, withCache(false))
	if first.ds.HasErrors() {
		t.Fatal(first.ds.Err())
	}
	v := mustVersion(t, "2.0.0")
	linux := Platform{"linux", "amd64"}
	cached := PackageDir(cache, p, v, linux)
	if target, err := os.Readlink(PackageDir(first.dir, p, v, linux)); err != nil || target != cached {
		t.Errorf("installed package links to %q (%v), want the cache %s", target, err, cached)
	}
	if downloads() != 1 {
		t.Fatalf("%d downloads, want 1", downloads())
	}

	tests := []struct {
		name          string
		lock          *Locks
		mayBreak      bool
		wantDownloads int
		wantHashes    int
	}{
		{name: "locked", lock: first.locks, wantDownloads: 0, wantHashes: 1 + len(testPlatforms)},
		{name: "not locked", wantDownloads: 1, wantHashes: 1 + len(testPlatforms)},
		{name: "not locked, may break the lock file", mayBreak: true, wantDownloads: 0, wantHashes: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := downloads()
			run := runInstall(t, sources, reqs, tc.lock, withCache(tc.mayBreak))
			if run.ds.HasErrors() {
				t.Fatal(run.ds.Err())
			}
			if got := downloads() - before; got != tc.wantDownloads {
				t.Errorf("%d downloads, want %d", got, tc.wantDownloads)
			}
			if tc.wantDownloads == 0 && !slices.Contains(run.log, "- Using "+p.String()+" v2.0.0 from the shared cache directory") {
				t.Errorf("log:\n%s", strings.Join(run.log, "\n"))
			}
			if got := len(run.locks.Get(p).Hashes); got != tc.wantHashes {
				t.Errorf("lock has %d hashes, want %d", got, tc.wantHashes)
			}
		})
	}
}

// TestRegistryUntrustedCertificate: a registry whose certificate rig does
// not trust is an error saying so at once, not retried.
func TestRegistryUntrustedCertificate(t *testing.T) {
	reg := registrytest.New(t, nil, randomReleases()...)
	var waits atomic.Int32
	client := &Client{HTTP: &http.Client{}, Backoff: func(int) time.Duration { waits.Add(1); return 0 }}
	p := registryProvider(reg, "random")
	run := runInstall(t, []SourceEntry{{Source: RegistrySource{Client: client}}}, []Requirement{{Provider: p}}, nil, nil)
	if !run.ds.HasErrors() || !strings.Contains(run.ds.Err().Error(), "certificate signed by unknown authority") {
		t.Errorf("install: %v", run.ds.Err())
	}
	if waits.Load() != 0 {
		t.Errorf("retried %d times", waits.Load())
	}
}

// TestRegistryLockedHashes: a downloaded package must match a hash the
// lock file records for its version; one that does not is refused even
// though the registry signed it.
func TestRegistryLockedHashes(t *testing.T) {
	reg := registrytest.New(t, nil, randomReleases()...)
	p := registryProvider(reg, "random")
	sources := []SourceEntry{{Source: RegistrySource{Client: newTestClient(reg, nil)}}}
	prior := NewLocks()
	prior.Set(&Lock{Provider: p, Version: mustVersion(t, "1.1.0"), Hashes: []string{"zh:0000000000000000000000000000000000000000000000000000000000000000"}})
	run := runInstall(t, sources, []Requirement{{Provider: p}}, prior, nil)
	if !run.ds.HasErrors() || !strings.Contains(run.ds.Err().Error(), "doesn't match any of the checksums previously recorded in the dependency lock file") {
		t.Errorf("install against a lock trusting other hashes: %v", run.ds.Err())
	}
	if entries, _ := os.ReadDir(filepath.Join(run.dir, reg.Host)); len(entries) > 0 {
		t.Errorf("the refused package was installed")
	}
}

// TestRegistryDiscoveryAbsoluteURL: a discovery document may name the
// providers API by an absolute URL on another host.
func TestRegistryDiscoveryAbsoluteURL(t *testing.T) {
	api := registrytest.New(t, nil, randomReleases()...)
	front := registrytest.New(t, nil)
	front.Set(t, registrytest.Options{Hook: func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == "/.well-known/terraform.json" {
			fmt.Fprintf(w, `{"providers.v1": %q}`, api.Server.URL+"/v1/providers/")
			return true
		}
		return false
	}})
	p := registryProvider(front, "random")
	run := runInstall(t, []SourceEntry{{Source: RegistrySource{Client: newTestClient(front, nil)}}}, []Requirement{{Provider: p}}, nil, nil)
	if run.ds.HasErrors() {
		t.Fatal(run.ds.Err())
	}
	if got := run.locks.Get(p); got == nil || got.Version.String() != "2.0.0" {
		t.Errorf("lock = %v", got)
	}
	if n := len(front.Requests()); n != 1 {
		t.Errorf("the front host had %d requests, want only the discovery", n)
	}
}
