package workdir

import (
	"context"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
	"github.com/rig-iac/rig/internal/state"
)

// RegistryHosts says under which registry host the working directory
// records each provider whose source address names none: from the lock
// file and, when init has read it, the state. Problems reading the lock
// file are left to checkProviders to report.
func (d *Dir) RegistryHosts() getproviders.RegistryHosts {
	if d.plugins != nil {
		return d.plugins.hosts
	}
	locks, _ := d.ReadLockFile()
	return getproviders.NewRegistryHosts(locks, d.stateProviders)
}

// PlaceProvidersFromState is init's step between the backend and the
// providers: when the lock file does not record some provider of cfg that
// may live under either default registry host, it reads the state and, if
// the state names providers under such a host, reloads the configuration
// with those hosts (so rig init in a directory OpenTofu applied without
// keeping its lock file keeps registry.opentofu.org). It returns cfg
// unchanged otherwise.
func (d *Dir) PlaceProvidersFromState(ctx context.Context, cfg *config.Module) (*config.Module, diag.Diagnostics) {
	locks := d.loadPluginProviders().locks
	needed := false
	for _, p := range TreeRequiredProviders(cfg) {
		if addrs.IsDefaultRegistryHost(p.Hostname) && locks.Get(p) == nil {
			needed = true
		}
	}
	if !needed {
		return cfg, nil
	}
	store, ds := d.StateStore(ctx, cfg)
	if ds.HasErrors() {
		return cfg, ds
	}
	s, more := ReadState(ctx, store)
	if ds = ds.Append(more); ds.HasErrors() {
		return cfg, ds
	}
	ps := stateProviders(s)
	if len(ps) == 0 {
		return cfg, ds
	}
	d.stateProviders = ps
	d.plugins = nil
	cfg, more = d.LoadConfig()
	return cfg, ds.Append(more)
}

// stateProviders returns the providers s names under a default registry
// host, sorted, each once.
func stateProviders(s *state.State) []addrs.Provider {
	seen := map[addrs.Provider]bool{}
	for _, rs := range s.Resources {
		if p := rs.ProviderConfig.Provider; addrs.IsDefaultRegistryHost(p.Hostname) {
			seen[p] = true
		}
	}
	out := make([]addrs.Provider, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.SortFunc(out, addrs.Provider.Compare)
	return out
}

// alignStateProviders makes each resource of s that the state records
// under one default registry host, while the configuration uses the same
// provider under the other (addrs.Provider.SameAs), use the
// configuration's address: one provider process serves both, objects
// whose resource left the configuration are deleted through it, and the
// state is written back in the form the working directory's lock file
// uses, as Terraform and OpenTofu rewrite a resource's provider when they
// record it. s is the caller's freshly read state.
func alignStateProviders(cfg *config.Module, s *state.State) {
	used := TreeRequiredProviders(cfg)
	for _, rs := range s.Resources {
		p := rs.ProviderConfig.Provider
		if slices.Contains(used, p) {
			continue
		}
		for _, q := range used {
			if q.SameAs(p) {
				rs.ProviderConfig.Provider = q
				break
			}
		}
	}
}
