package getproviders

import (
	"github.com/rig-iac/rig/internal/addrs"
)

// RegistryHosts says under which registry host a working directory records
// each provider whose source address names none. Terraform records such a
// provider as registry.terraform.io/NAMESPACE/TYPE and OpenTofu as
// registry.opentofu.org/NAMESPACE/TYPE; both name the same provider
// (addrs.Provider.SameAs), and a directory one tool initialized must keep
// working with the other. So rig uses the host the directory already
// records for the provider (its lock file first, then its state), else the
// host the directory records its other providers under, and
// registry.terraform.io only in a directory that records neither.
//
// This is the one place that policy lives: the configuration loader,
// dev_overrides and TF_REATTACH_PROVIDERS go through Provider, and the
// installer and the filesystem mirror find packages under either host
// (FilesystemMirror, SourceEntry patterns).
//
// The zero value uses registry.terraform.io everywhere.
type RegistryHosts struct {
	// known maps NAMESPACE/TYPE (under addrs.DefaultProviderRegistryHost)
	// to the host the directory records it under.
	known map[addrs.Provider]string
	// fallback is the host for a provider the directory does not record;
	// "" for addrs.DefaultProviderRegistryHost.
	fallback string
}

// NewRegistryHosts works out the hosts from the lock file (nil: none) and
// the providers the state names (in any order; nil: none). A provider the
// lock file records decides by its lock; one only the state names, by the
// state. The fallback is registry.opentofu.org when every recorded provider
// under a default host is under that one, else registry.terraform.io.
func NewRegistryHosts(locks *Locks, inState []addrs.Provider) RegistryHosts {
	h := RegistryHosts{known: map[addrs.Provider]string{}}
	counts := map[string]int{}
	note := func(p addrs.Provider, overrides bool) {
		if !addrs.IsDefaultRegistryHost(p.Hostname) {
			return
		}
		key := p.WithHostname(addrs.DefaultProviderRegistryHost)
		if _, ok := h.known[key]; ok && !overrides {
			return
		}
		h.known[key] = p.Hostname
		counts[p.Hostname]++
	}
	if locks != nil {
		for _, lk := range locks.Sorted() {
			note(lk.Provider, true)
		}
	}
	for _, p := range inState {
		note(p, false)
	}
	if counts[addrs.OpenTofuRegistryHost] > 0 && counts[addrs.DefaultProviderRegistryHost] == 0 {
		h.fallback = addrs.OpenTofuRegistryHost
	}
	return h
}

// Provider returns p, a provider whose source address names no hostname
// (as addrs.ParseProviderSource gives it, under
// addrs.DefaultProviderRegistryHost), under the host the directory uses
// for it. A provider under any other host is returned unchanged.
func (h RegistryHosts) Provider(p addrs.Provider) addrs.Provider {
	if !addrs.IsDefaultRegistryHost(p.Hostname) {
		return p
	}
	key := p.WithHostname(addrs.DefaultProviderRegistryHost)
	if host, ok := h.known[key]; ok {
		return p.WithHostname(host)
	}
	if h.fallback != "" {
		return p.WithHostname(h.fallback)
	}
	return key
}

// DefaultHost returns the host the directory records providers without a
// hostname under when it records nothing about the provider itself:
// addrs.DefaultProviderRegistryHost or addrs.OpenTofuRegistryHost. The
// module installer uses it for registry modules too.
func (h RegistryHosts) DefaultHost() string {
	if h.fallback != "" {
		return h.fallback
	}
	return addrs.DefaultProviderRegistryHost
}

// otherDefaultHost returns p under the other default registry host, and
// false when p is under neither.
func otherDefaultHost(p addrs.Provider) (addrs.Provider, bool) {
	switch p.Hostname {
	case addrs.DefaultProviderRegistryHost:
		return p.WithHostname(addrs.OpenTofuRegistryHost), true
	case addrs.OpenTofuRegistryHost:
		return p.WithHostname(addrs.DefaultProviderRegistryHost), true
	}
	return p, false
}
