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
