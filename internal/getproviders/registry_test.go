package getproviders

import (
	"encoding/hex"
	"fmt"
	"slices"
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
		"\nPartner and community providers are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://www.terraform.io/docs/cli/plugins/signing.html",
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
