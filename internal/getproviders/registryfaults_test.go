package getproviders

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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
	if got := len(run.locks.Get(p).Hashes); got != 2+len(testPlatforms) {
		t.Errorf("lock has %d hashes, want h1: and a zh: per platform and for the manifest", got)
	}
	reg.Set(t, registrytest.Options{NoKeys: true, TamperZip: true})
	if run := runInstall(t, sources, []Requirement{{Provider: p}}, nil, nil); !run.ds.HasErrors() {
		t.Error("a tampered zip was installed without keys")
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

// TestRegistryClientSettingsFromEnvironment: TF_REGISTRY_DISCOVERY_RETRY
// is the number of retries of a registry request and
// TF_REGISTRY_CLIENT_TIMEOUT bounds each try of a metadata request, in
// seconds, as in Terraform and OpenTofu; a package download is not bounded
// by it.
func TestRegistryClientSettingsFromEnvironment(t *testing.T) {
	withoutCLIConfigFile(t)
	t.Setenv("TF_REGISTRY_DISCOVERY_RETRY", "1")
	t.Setenv("TF_REGISTRY_CLIENT_TIMEOUT", "1")
	cfg, ds := LoadCLIConfig()
	if len(ds) != 0 || cfg.RegistryRetries != 1 || cfg.RegistryTimeout != time.Second {
		t.Fatalf("LoadCLIConfig = %d retries, %s timeout, %v", cfg.RegistryRetries, cfg.RegistryTimeout, ds)
	}
	client := func(reg *registrytest.Registry, waits *atomic.Int32) *Client {
		c := cfg.Client()
		c.HTTP = reg.Server.Client()
		c.Backoff = newTestClient(reg, waits).Backoff
		return c
	}

	// A registry that never answers the versions request: two tries of a second each.
	reg := registrytest.New(t, nil, randomReleases()...)
	var tries atomic.Int32
	reg.Set(t, registrytest.Options{Hook: func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasSuffix(r.URL.Path, "/versions") {
			tries.Add(1)
			<-r.Context().Done()
			return true
		}
		return false
	}})
	var waits atomic.Int32
	run := runInstall(t, []SourceEntry{{Source: RegistrySource{Client: client(reg, &waits)}}}, []Requirement{{Provider: registryProvider(reg, "random")}}, nil, nil)
	if !run.ds.HasErrors() {
		t.Fatal("install from a registry that does not answer succeeded")
	}
	msg := run.ds.Err().Error()
	for _, want := range []string{"no complete answer within 1s (TF_REGISTRY_CLIENT_TIMEOUT)", "gave up after 2 attempts"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not contain %q:\n%s", want, msg)
		}
	}
	if tries.Load() != 2 || waits.Load() != 1 {
		t.Errorf("%d tries and %d backoffs, want 2 and 1", tries.Load(), waits.Load())
	}

	// A download slower than the timeout is not cut short.
	reg = registrytest.New(t, nil, randomReleases()...)
	reg.Set(t, registrytest.Options{Hook: func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasSuffix(r.URL.Path, ".zip") {
			time.Sleep(1500 * time.Millisecond)
		}
		return false
	}})
	run = runInstall(t, []SourceEntry{{Source: RegistrySource{Client: client(reg, nil)}}}, []Requirement{{Provider: registryProvider(reg, "random")}}, nil, nil)
	if run.ds.HasErrors() {
		t.Fatalf("a slow download failed: %v", run.ds.Err())
	}

	// Values that are not whole numbers above zero are ignored, with a warning.
	t.Setenv("TF_REGISTRY_DISCOVERY_RETRY", "0")
	t.Setenv("TF_REGISTRY_CLIENT_TIMEOUT", "10s")
	cfg, ds = LoadCLIConfig()
	if cfg.RegistryRetries != 0 || cfg.RegistryTimeout != 0 || len(ds) != 2 ||
		ds[0].Summary != "Invalid TF_REGISTRY_DISCOVERY_RETRY" || !strings.Contains(ds[1].Detail, `a whole number of seconds greater than zero, not "10s"`) {
		t.Errorf("LoadCLIConfig = %d retries, %s timeout, %v", cfg.RegistryRetries, cfg.RegistryTimeout, ds)
	}
	if c := cfg.Client(); c.MaxAttempts != 0 || c.RequestTimeout != 0 {
		t.Errorf("client = %d attempts, %s timeout; want the defaults", c.MaxAttempts, c.RequestTimeout)
	}
}

// TestDownloadSettingsFromEnvironment: TF_PROVIDER_DOWNLOAD_RETRY sets the
// retries of package downloads apart from the registry's other requests,
// and TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE turns on the setting
// of that name.
func TestDownloadSettingsFromEnvironment(t *testing.T) {
	withoutCLIConfigFile(t)
	t.Setenv("TF_PROVIDER_DOWNLOAD_RETRY", "5")
	t.Setenv("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE", "1")
	cfg, ds := LoadCLIConfig()
	if len(ds) != 0 || !cfg.CacheMayBreakLock || cfg.DownloadRetries != 5 {
		t.Fatalf("LoadCLIConfig = %+v, %v", cfg, ds)
	}
	reg := registrytest.New(t, nil, randomReleases()...)
	var zipTries atomic.Int32
	reg.Set(t, registrytest.Options{Hook: func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasSuffix(r.URL.Path, ".zip") && zipTries.Add(1) <= 5 {
			http.Error(w, "busy", http.StatusBadGateway)
			return true
		}
		return false
	}})
	c := cfg.Client()
	c.HTTP, c.Backoff = reg.Server.Client(), newTestClient(reg, nil).Backoff
	run := runInstall(t, []SourceEntry{{Source: RegistrySource{Client: c}}}, []Requirement{{Provider: registryProvider(reg, "random")}}, nil, nil)
	if run.ds.HasErrors() || zipTries.Load() != 6 {
		t.Errorf("install after 5 failed downloads: %d tries, %v", zipTries.Load(), run.ds.Err())
	}
	t.Setenv("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE", "0")
	if cfg, _ := LoadCLIConfig(); cfg.CacheMayBreakLock {
		t.Errorf("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE=0 turned the setting on")
	}
}

// withoutCLIConfigFile makes the test read no CLI configuration file,
// whatever the machine's environment and home directory hold.
func withoutCLIConfigFile(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("APPDATA", home)
	t.Setenv("TF_CLI_CONFIG_FILE", "")
	t.Setenv("TOFU_CLI_CONFIG_FILE", "")
}
