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
// directory initialized afresh. legacy holds an error for each provider the
// state records in the legacy namespace "-" (a state Terraform 0.12 or
// earlier wrote), which must be replaced by its full address first, as
// OpenTofu's init requires; ds the errors of reading the state.
func (d *Dir) ProvidersOnlyInState(ctx context.Context, cfg *config.Module) (_ []addrs.Provider, legacy, ds diag.Diagnostics) {
	store, ds := d.StateStore(ctx, cfg)
	if ds.HasErrors() {
		return nil, nil, ds
	}
	s, more := ReadState(ctx, store)
	if ds = ds.Append(more); ds.HasErrors() {
		return nil, nil, ds
	}
	required := TreeRequiredProviders(cfg)
	var out, unqualified []addrs.Provider
	for _, rs := range s.Resources {
		p := rs.ProviderConfig.Provider
		if p.Namespace == "-" && !slices.ContainsFunc(unqualified, p.SameAs) {
			unqualified = append(unqualified, p)
		}
		if p.IsZero() || p.IsBuiltIn() || slices.ContainsFunc(out, p.SameAs) || slices.ContainsFunc(required, p.SameAs) {
			continue
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b addrs.Provider) int { return a.Compare(b) })
	slices.SortFunc(unqualified, func(a, b addrs.Provider) int { return a.Compare(b) })
	for _, p := range unqualified {
		legacy = legacy.Append(diag.Errorf("Invalid legacy provider address",
			"The state records objects of the provider %q without a namespace, as Terraform 0.12 and earlier recorded providers. Replace it with the provider's full address before initializing, for example:\n  rig state replace-provider -- -/%s hashicorp/%s", p.Type, p.Type, p.Type))
	}
	return out, legacy, ds
}
