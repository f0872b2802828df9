package command

import (
	"sort"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
)

// requiredProviders returns every provider the configuration needs: those in
// required_providers and those its resources imply, sorted.
func requiredProviders(cfg *config.Module) []addrs.Provider {
	seen := map[addrs.Provider]bool{}
	for _, rp := range cfg.Terraform.RequiredProviders {
		seen[rp.Provider] = true
	}
	for _, r := range cfg.Resources() {
		name, _ := cfg.ProviderLocalName(r)
		seen[cfg.ProviderFor(name)] = true
	}
	for _, pb := range cfg.ProviderConfigs {
		seen[cfg.ProviderFor(pb.Name)] = true
	}
	out := make([]addrs.Provider, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}
