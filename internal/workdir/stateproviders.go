package workdir

import (
	"context"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
)

// ProvidersOnlyInState returns the plugin providers of the objects the
// workspace's state records that configuration cfg does not require (an
// object whose resource block was removed): init installs them too, as
// OpenTofu does, so that a plan can destroy those objects in a working
// directory initialized afresh.
func (d *Dir) ProvidersOnlyInState(ctx context.Context, cfg *config.Module) ([]addrs.Provider, diag.Diagnostics) {
	store, ds := d.StateStore(ctx, cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	s, more := ReadState(ctx, store)
	if ds = ds.Append(more); ds.HasErrors() {
		return nil, ds
	}
	required := TreeRequiredProviders(cfg)
	var out []addrs.Provider
	for _, rs := range s.Resources {
		p := rs.ProviderConfig.Provider
		if p.IsZero() || p.IsBuiltIn() || slices.ContainsFunc(out, p.SameAs) || slices.ContainsFunc(required, p.SameAs) {
			continue
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b addrs.Provider) int { return a.Compare(b) })
	return out, ds
}
