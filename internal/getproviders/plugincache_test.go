package getproviders

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/getproviders/registrytest"
)

// TestRegistryPluginCache: a downloaded package is unpacked into the
// plugin cache and linked from there; another directory whose lock trusts
// it takes it from the cache without downloading; a provider not locked
// yet is downloaded again unless the cache may break the lock file. A
// locked provider in the cache needs no registry at all.
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
		// h1:, and a zh: for each platform's zip and for the manifest.
		{name: "locked", lock: first.locks, wantDownloads: 0, wantHashes: 2 + len(testPlatforms)},
		{name: "not locked", wantDownloads: 1, wantHashes: 2 + len(testPlatforms)},
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

	// With the registry gone, a locked provider still comes from the cache.
	reg.Server.Close()
	run := runInstall(t, sources, reqs, first.locks, withCache(false))
	if run.ds.HasErrors() {
		t.Fatalf("install from the cache with the registry down: %v", run.ds.Err())
	}
	if !slices.Contains(run.log, "- Using "+p.String()+" v2.0.0 from the shared cache directory") {
		t.Errorf("log:\n%s", strings.Join(run.log, "\n"))
	}
}
