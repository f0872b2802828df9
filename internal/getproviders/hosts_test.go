package getproviders

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/addrs"
)

// openTofuFixtures are files OpenTofu 1.10 wrote, shared with other
// projects beside this repository.
var openTofuFixtures = filepath.Join("..", "..", "..", "shared", "fixtures", "opentofu-1.10")

func tofuProvider(typ string) addrs.Provider {
	return addrs.NewDefaultProvider(typ).WithHostname(addrs.OpenTofuRegistryHost)
}

func TestRegistryHosts(t *testing.T) {
	random, null := addrs.NewDefaultProvider("random"), addrs.NewDefaultProvider("null")
	locks := func(ps ...addrs.Provider) *Locks {
		l := NewLocks()
		for _, p := range ps {
			l.Set(&Lock{Provider: p, Version: mustVersion(t, "1.0.0")})
		}
		return l
	}
	explicit := addrs.Provider{Hostname: "example.com", Namespace: "hashicorp", Type: "random"}
	tests := []struct {
		name    string
		locks   *Locks
		inState []addrs.Provider
		ask     addrs.Provider
		want    addrs.Provider
	}{
		{name: "fresh directory", ask: random, want: random},
		{name: "OpenTofu's lock", locks: locks(tofuProvider("random")), ask: random, want: tofuProvider("random")},
		{name: "asked under OpenTofu's host in a Terraform directory", locks: locks(random), ask: tofuProvider("random"), want: random},
		{name: "a new provider where OpenTofu locked the others", locks: locks(tofuProvider("random")), ask: null, want: tofuProvider("null")},
		{name: "a new provider where both hosts are locked", locks: locks(tofuProvider("random"), addrs.NewDefaultProvider("local")), ask: null, want: null},
		{name: "the state alone", inState: []addrs.Provider{tofuProvider("random")}, ask: random, want: tofuProvider("random")},
		{name: "the lock file over the state", locks: locks(random), inState: []addrs.Provider{tofuProvider("random")}, ask: random, want: random},
		{name: "another host is left alone", locks: locks(tofuProvider("random")), ask: explicit, want: explicit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NewRegistryHosts(tt.locks, tt.inState).Provider(tt.ask); got != tt.want {
				t.Errorf("Provider(%s) = %s, want %s", tt.ask, got, tt.want)
			}
		})
	}
}

// TestOpenTofuLockFile reads the lock file `tofu init` wrote: the entry
// names registry.opentofu.org, the directory's hosts follow it, and
// writing it back keeps every provider block as OpenTofu wrote it.
func TestOpenTofuLockFile(t *testing.T) {
	path := filepath.Join(openTofuFixtures, "workdir-lockfile", LockFileName)
	src, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Skip("no OpenTofu fixtures beside the repository: " + openTofuFixtures)
	}
	if err != nil {
		t.Fatal(err)
	}
	locks, ds := ParseLockFile(src, path)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	random := tofuProvider("random")
	if lk := locks.Get(random); lk == nil || lk.Version.String() != "3.7.2" || lk.Constraints != "~> 3.7" {
		t.Fatalf("lock of %s = %+v", random, lk)
	}
	if got := NewRegistryHosts(locks, nil).Provider(addrs.NewDefaultProvider("random")); got != random {
		t.Errorf("hashicorp/random is %s in this directory, want %s", got, random)
	}
	body := func(b []byte) []byte { return b[bytes.Index(b, []byte("\nprovider ")):] }
	if got := locks.Marshal(); !bytes.Equal(body(got), body(src)) {
		t.Errorf("written back:\n%s\nOpenTofu wrote:\n%s", got, src)
	}
}

// TestInstallUnderOpenTofuHost installs registry.opentofu.org/hashicorp/null
// from a mirror laid out under registry.terraform.io, into the directory
// OpenTofu uses, where VerifyInstalled finds it; "hashicorp/*" patterns
// cover both hosts.
func TestInstallUnderOpenTofuHost(t *testing.T) {
	null := tofuProvider("null")
	mirror := fakeMirror(t, "null", []string{"3.2.0"}, nil)
	include, err := ParsePattern("hashicorp/*")
	if err != nil {
		t.Fatal(err)
	}
	inst := &Installer{
		Sources:   []SourceEntry{{Source: FilesystemMirror{Dir: mirror}, Include: []Pattern{include}}},
		TargetDir: filepath.Join(t.TempDir(), "providers"),
	}
	locks, ds := inst.Install(context.Background(), []Requirement{{Provider: null}}, NewLocks(), InstallOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if lk := locks.Get(null); lk == nil || lk.Version.String() != "3.2.0" {
		t.Fatalf("locks = %s", locks.Marshal())
	}
	installed, ds := VerifyInstalled(inst.TargetDir, locks, CurrentPlatform)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	want := filepath.Join(inst.TargetDir, "registry.opentofu.org", "hashicorp", "null", "3.2.0")
	if exe := installed[null].Executable; !strings.HasPrefix(exe, want) {
		t.Errorf("installed at %s, want under %s", exe, want)
	}
}
