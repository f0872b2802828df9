package getproviders

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/getproviders/registrytest"
)

// TestLocallyHashed: a provider installed from a filesystem mirror is
// listed when its lock holds only the hashes computed here (no lock
// before, or one with no other hash of the version), not when the lock
// already had another platform's hash; one a registry signed is never.
func TestLocallyHashed(t *testing.T) {
	null := addrs.NewDefaultProvider("null")
	mirror := []SourceEntry{{Source: FilesystemMirror{Dir: fakeMirror(t, "null", []string{"3.2.0"}, nil)}}}
	reqNull := []Requirement{{Provider: null}}
	first := runInstall(t, mirror, reqNull, nil, nil)
	if first.ds.HasErrors() {
		t.Fatal(first.ds.Err())
	}
	withOther := NewLocks()
	lk := *first.locks.Get(null)
	lk.Hashes = append(append([]string(nil), lk.Hashes...), "zh:0000000000000000000000000000000000000000000000000000000000000000")
	withOther.Set(&lk)

	reg := registrytest.New(t, nil, randomReleases()...)
	random := registryProvider(reg, "random")
	signed := []SourceEntry{{Source: RegistrySource{Client: newTestClient(reg, nil)}}}

	tests := []struct {
		name    string
		sources []SourceEntry
		reqs    []Requirement
		prior   *Locks
		want    []addrs.Provider
	}{
		{"mirror, no lock", mirror, reqNull, nil, []addrs.Provider{null}},
		{"mirror, the lock of this package only", mirror, reqNull, first.locks, []addrs.Provider{null}},
		{"mirror, a lock with another platform's hash", mirror, reqNull, withOther, nil},
		{"registry, signed hashes", signed, []Requirement{{Provider: random}}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var inst *Installer
			run := runInstall(t, tt.sources, tt.reqs, tt.prior, func(i *Installer) { inst = i })
			if run.ds.HasErrors() {
				t.Fatal(run.ds.Err())
			}
			if diff := cmp.Diff(tt.want, inst.LocallyHashed()); diff != "" {
				t.Errorf("LocallyHashed (-want +got):\n%s", diff)
			}
		})
	}
}
