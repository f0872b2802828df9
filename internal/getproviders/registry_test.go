package getproviders

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders/registrytest"
)

var testPlatforms = []string{"darwin_arm64", "linux_amd64", "windows_amd64"}

// randomReleases are the versions of example/random a test registry serves.
func randomReleases() []registrytest.Release {
	return []registrytest.Release{
		{Namespace: "example", Type: "random", Version: "1.0.0", Platforms: testPlatforms},
		{Namespace: "example", Type: "random", Version: "1.1.0", Platforms: testPlatforms},
		{Namespace: "example", Type: "random", Version: "2.0.0", Platforms: testPlatforms},
		// A version speaking only protocol 4 is never selected.
		{Namespace: "example", Type: "random", Version: "2.1.0", Platforms: testPlatforms, Protocols: []string{"4.0"}},
	}
}

// newTestClient trusts the test servers' certificate and does not pause
// between retries; backoffs records the pauses asked for.
func newTestClient(reg *registrytest.Registry, backoffs *atomic.Int32) *Client {
	return &Client{HTTP: reg.Server.Client(), Backoff: func(int) time.Duration {
		if backoffs != nil {
			backoffs.Add(1)
		}
		return 0
	}}
}

type installRun struct {
	locks *Locks
	ds    diag.Diagnostics
	log   []string
	dir   string
}

func runInstall(t *testing.T, sources []SourceEntry, reqs []Requirement, prior *Locks, modify func(*Installer)) installRun {
	t.Helper()
	run := installRun{dir: t.TempDir()}
	inst := &Installer{Sources: sources, TargetDir: run.dir, Platform: Platform{"linux", "amd64"}, Log: func(s string) { run.log = append(run.log, s) }}
	if modify != nil {
		modify(inst)
	}
	run.locks, run.ds = inst.Install(t.Context(), reqs, prior, InstallOptions{})
	return run
}

func registryProvider(reg *registrytest.Registry, typ string) addrs.Provider {
	return addrs.Provider{Hostname: reg.Host, Namespace: "example", Type: typ}
}

func mustConstraints(t *testing.T, s string) Constraints {
	t.Helper()
	cs, err := ParseConstraints(s)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestRegistryInstall installs from a registry found by service discovery:
// the newest version the constraints allow that speaks protocol 5, its zip
// checked against SHA256SUMS and the signature, and a lock with the h1: of
// the installed package and the zh: of every platform's zip.
func TestRegistryInstall(t *testing.T) {
	reg := registrytest.New(t, nil, randomReleases()...)
	p := registryProvider(reg, "random")
	sources := []SourceEntry{{Source: RegistrySource{Client: newTestClient(reg, nil)}}}
	run := runInstall(t, sources, []Requirement{{Provider: p, Constraints: mustConstraints(t, "< 3.0.0")}}, nil, nil)
	if run.ds.HasErrors() {
		t.Fatal(run.ds.Err())
	}
	keyID := reg.Key.PrimaryKey.KeyIdString()
	wantLog := []string{
		fmt.Sprintf("- Finding %s versions matching \"< 3.0.0\"...", p),
		fmt.Sprintf("- Installing %s v2.0.0...", p),
		fmt.Sprintf("- Installed %s v2.0.0 (self-signed, key ID %s)", p, keyID),
		"\nPartner and community providers are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://developer.hashicorp.com/terraform/cli/plugins/signing",
	}
	if diff := cmp.Diff(wantLog, run.log); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
	dir := PackageDir(run.dir, p, mustVersion(t, "2.0.0"), Platform{"linux", "amd64"})
	h1, err := HashDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{h1}
	rel := randomReleases()[2]
	for _, pl := range testPlatforms {
		sum := reg.ZipSHA256(rel, pl)
		want = append(want, "zh:"+hex.EncodeToString(sum[:]))
	}
	manifest := registrytest.ManifestSHA256(rel)
	want = append(want, "zh:"+hex.EncodeToString(manifest[:]))
	lock := run.locks.Get(p)
	if lock == nil || lock.Version.String() != "2.0.0" || lock.Constraints != "< 3.0.0" {
		t.Fatalf("lock = %+v", lock)
	}
	if diff := cmp.Diff(sortedUnique(want), lock.Hashes); diff != "" {
		t.Errorf("lock hashes (-want +got):\n%s", diff)
	}
	if _, ok := FindExecutable(dir, p); !ok {
		t.Errorf("no executable in %s", dir)
	}

	// With that lock, a fresh directory gets the locked version and the
	// lock keeps its hashes.
	again := runInstall(t, sources, []Requirement{{Provider: p}}, run.locks, nil)
	if again.ds.HasErrors() {
		t.Fatal(again.ds.Err())
	}
	if got := again.locks.Get(p); got.Version.String() != "2.0.0" || !slices.Equal(got.Hashes, lock.Hashes) {
		t.Errorf("reinstall lock = %s %v", got.Version, got.Hashes)
	}
}

// TestRegistryRefuses: what a registry gets wrong is an error naming the
// host and the provider, or the file that did not check out and the key;
// nothing is installed and the prior lock is kept.
func TestRegistryRefuses(t *testing.T) {
	other := registrytest.NewKey(t, "someone else")
	const token = "s3cr3t-t0ken"
	tests := []struct {
		name string
		opts registrytest.Options
		req  string // provider type, "random" by default
		cons string
		// platform to install for, linux_amd64 by default
		platform Platform
		want     []string
	}{
		{
			name: "tampered zip",
			opts: registrytest.Options{TamperZip: true},
			want: []string{"Error while installing HOST/example/random v2.0.0", "terraform-provider-random_2.0.0_linux_amd64.zip", "the checksums file https://HOST/files/example/random/2.0.0/SHA256SUMS lists"},
		},
		{
			name: "SHA256SUMS changed after signing",
			opts: registrytest.Options{TamperSums: true},
			want: []string{"the signature of https://HOST/files/example/random/2.0.0/SHA256SUMS does not verify with the registry's key (key ID KEY)"},
		},
		{
			name: "signed by a key the registry does not offer",
			opts: registrytest.Options{SignWith: other},
			want: []string{"the signature of https://HOST/files/example/random/2.0.0/SHA256SUMS was made by key ID OTHER, which is none of the keys the registry offers for the provider (key ID KEY)"},
		},
		{
			name: "garbage versions",
			opts: registrytest.Options{Hook: func(w http.ResponseWriter, r *http.Request) bool {
				if strings.HasSuffix(r.URL.Path, "/versions") {
					_, _ = w.Write([]byte("<html>oops"))
					return true
				}
				return false
			}},
			want: []string{"Could not retrieve the list of available versions for provider HOST/example/random: provider registry HOST returned an invalid list of versions for HOST/example/random"},
		},
		{
			name: "garbage discovery",
			opts: registrytest.Options{Hook: func(w http.ResponseWriter, r *http.Request) bool {
				if r.URL.Path == "/.well-known/terraform.json" {
					_, _ = w.Write([]byte(`{"modules.v1": "/v1/modules/"}`))
					return true
				}
				return false
			}},
			want: []string{"host HOST does not offer a provider registry", `"providers.v1"`},
		},
		{
			name: "always 503",
			opts: registrytest.Options{Hook: func(w http.ResponseWriter, r *http.Request) bool {
				http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
				return true
			}},
			want: []string{"failed to discover the services of host HOST", "503 Service Unavailable (gave up after 4 attempts)"},
		},
		{
			name: "unknown provider",
			req:  "nope",
			want: []string{"provider registry HOST does not have a provider named HOST/example/nope"},
		},
		{
			name: "no version matches",
			cons: ">= 5.0.0",
			want: []string{"no available releases match the given constraints >= 5.0.0 (the search locations have 2.0.0, 1.1.0, 1.0.0)"},
		},
		{
			name:     "no package for the platform",
			platform: Platform{"plan9", "mips"},
			want:     []string{"provider HOST/example/random v2.0.0 does not have a package available for your current platform, plan9_mips (provider registry HOST has it for darwin_arm64, linux_amd64, windows_amd64)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := registrytest.New(t, nil, randomReleases()...)
			reg.Set(t, tc.opts)
			typ := "random"
			if tc.req != "" {
				typ = tc.req
			}
			p := registryProvider(reg, typ)
			client := newTestClient(reg, nil)
			client.Credentials = NewCredentials(map[string]string{reg.Host: token}, nil)
			sources := []SourceEntry{{Source: RegistrySource{Client: client}}}
			run := runInstall(t, sources, []Requirement{{Provider: p, Constraints: mustConstraints(t, tc.cons)}}, nil, func(i *Installer) {
				if tc.platform != (Platform{}) {
					i.Platform = tc.platform
				}
			})
			if !run.ds.HasErrors() {
				t.Fatalf("install succeeded: %v", run.locks.Get(p))
			}
			msg := run.ds.Err().Error()
			replacer := strings.NewReplacer("HOST", reg.Host, "OTHER", other.PrimaryKey.KeyIdString(), "KEY", reg.Key.PrimaryKey.KeyIdString())
			for _, w := range tc.want {
				if w := replacer.Replace(w); !strings.Contains(msg, w) {
					t.Errorf("error does not contain %q:\n%s", w, msg)
				}
			}
			if strings.Contains(msg, token) {
				t.Errorf("the error shows the token:\n%s", msg)
			}
			if got := run.locks.Get(p); got != nil {
				t.Errorf("a failed install locked %v", got)
			}
			if entries, _ := os.ReadDir(filepath.Join(run.dir, reg.Host, "example", typ)); len(entries) > 0 {
				t.Errorf("a refused package was installed: %v", entries)
			}
		})
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
