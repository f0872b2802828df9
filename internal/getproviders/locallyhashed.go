package getproviders

import (
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
)

// LocallyHashed returns the providers the last Install installed whose
// lock holds only the hashes computed from the package installed here,
// for this platform alone: no registry listed the packages of the other
// platforms (a filesystem or network mirror, the shared cache), and the
// lock had no other hashes of that version before. Another platform
// cannot install them from the lock file as it is. Sorted; nil for none.
func (i *Installer) LocallyHashed() []addrs.Provider {
	out := slices.Clone(i.locallyHashed)
	slices.SortFunc(out, func(a, b addrs.Provider) int { return strings.Compare(a.ForDisplay(), b.ForDisplay()) })
	return out
}

// noteLocallyHashed records that p was installed with the hashes local
// computed from its package and the hashes signed its source listed,
// when the lock will hold only local ones: none signed, and the lock's
// prior hashes of the version (if any) are no others than local.
func (i *Installer) noteLocallyHashed(p addrs.Provider, prior, local, signed []string) {
	if len(signed) > 0 {
		return
	}
	for _, h := range prior {
		if !slices.Contains(local, h) {
			return
		}
	}
	i.locallyHashed = append(i.locallyHashed, p)
}
