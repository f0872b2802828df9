package workdir

import (
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
)

// SelectRequirements returns the requirements of reqs for the providers
// args name by source address (providers lock's arguments), with the
// registry hosts of the CLI configuration applied. An argument that is not
// an address, or names a provider reqs lacks, is an error.
func (d *Dir) SelectRequirements(reqs []getproviders.Requirement, args []string) ([]getproviders.Requirement, diag.Diagnostics) {
	var ds diag.Diagnostics
	var only []getproviders.Requirement
	for _, arg := range args {
		p, err := addrs.ParseProviderSource(arg)
		if err != nil {
			ds = ds.Append(diag.Errorf("Invalid provider argument", "The argument %q is not a valid provider source address: %s.", arg, err))
			continue
		}
		p = d.RegistryHosts().Provider(p)
		i := slices.IndexFunc(reqs, func(r getproviders.Requirement) bool { return r.Provider == p })
		if i < 0 {
			ds = ds.Append(diag.Errorf("Invalid provider argument", "The provider %s is not required by the current configuration.", p))
			continue
		}
		only = append(only, reqs[i])
	}
	return only, ds
}
