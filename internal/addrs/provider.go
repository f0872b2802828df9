package addrs

import (
	"fmt"
	"strings"
)

// DefaultProviderRegistryHost is the hostname implied by a provider source
// address without one, as Terraform implies it; rig uses it in a working
// directory that records no other (see getproviders.RegistryHosts).
const DefaultProviderRegistryHost = "registry.terraform.io"

// OpenTofuRegistryHost is the hostname OpenTofu implies for a provider
// source address without one. A provider OpenTofu records as
// registry.opentofu.org/NAMESPACE/TYPE is the one Terraform records as
// registry.terraform.io/NAMESPACE/TYPE: see Provider.SameAs.
const OpenTofuRegistryHost = "registry.opentofu.org"

// IsDefaultRegistryHost reports whether host is one a provider source
// address without a hostname stands for: DefaultProviderRegistryHost
// (Terraform, rig) or OpenTofuRegistryHost (OpenTofu).
func IsDefaultRegistryHost(host string) bool {
	return host == DefaultProviderRegistryHost || host == OpenTofuRegistryHost
}

// BuiltInProviderHost and BuiltInProviderNamespace identify providers compiled into rig.
const (
	BuiltInProviderHost      = "terraform.io"
	BuiltInProviderNamespace = "builtin"
)

// Provider names a provider by its fully-qualified source address,
// registry.terraform.io/hashicorp/null.
type Provider struct {
	Hostname  string
	Namespace string
	Type      string
}

// NewDefaultProvider returns registry.terraform.io/hashicorp/TYPE, the
// provider implied by a resource type prefix without required_providers.
func NewDefaultProvider(typeName string) Provider {
	return Provider{Hostname: DefaultProviderRegistryHost, Namespace: "hashicorp", Type: typeName}
}

// NewBuiltInProvider returns terraform.io/builtin/TYPE.
func NewBuiltInProvider(typeName string) Provider {
	return Provider{Hostname: BuiltInProviderHost, Namespace: BuiltInProviderNamespace, Type: typeName}
}

// IsBuiltIn reports whether p is compiled into rig rather than a plugin.
func (p Provider) IsBuiltIn() bool {
	return p.Hostname == BuiltInProviderHost && p.Namespace == BuiltInProviderNamespace
}

// SameAs reports whether p and q are the same provider: equal, or the same
// NAMESPACE/TYPE under the two default registry hosts, as OpenTofu and
// Terraform record a provider whose source address names no hostname.
func (p Provider) SameAs(q Provider) bool {
	if p == q {
		return true
	}
	return p.Namespace == q.Namespace && p.Type == q.Type &&
		IsDefaultRegistryHost(p.Hostname) && IsDefaultRegistryHost(q.Hostname)
}

// WithHostname returns p under another registry host.
func (p Provider) WithHostname(host string) Provider {
	p.Hostname = host
	return p
}

// IsZero reports whether p is the zero value.
func (p Provider) IsZero() bool { return p == Provider{} }

// String returns the full source address: hostname/namespace/type.
func (p Provider) String() string { return p.Hostname + "/" + p.Namespace + "/" + p.Type }

// ForDisplay returns the address without a default registry host
// (Terraform's or OpenTofu's), as each tool displays its own.
func (p Provider) ForDisplay() string {
	if IsDefaultRegistryHost(p.Hostname) {
		return p.Namespace + "/" + p.Type
	}
	return p.String()
}

// AbsProviderConfig names one provider configuration: a provider, the module
// whose provider block configures it, and an optional alias. Its String is
// the form state files record: provider["registry.terraform.io/hashicorp/null"].west.
//
// A configuration whose block has for_each (OpenTofu 1.9+) has one instance
// per key; Key selects one of them (NoKey for a configuration without
// for_each), and String then ends in the key:
// provider["registry.terraform.io/hashicorp/aws"].by_region["eu"].
type AbsProviderConfig struct {
	Module   ModuleInstance
	Provider Provider
	Alias    string
	Key      InstanceKey
}

// Config returns pc without its instance key: the provider block's address.
func (pc AbsProviderConfig) Config() AbsProviderConfig {
	pc.Key = NoKey
	return pc
}

// Instance returns the instance k of provider configuration pc.
func (pc AbsProviderConfig) Instance(k InstanceKey) AbsProviderConfig {
	pc.Key = k
	return pc
}

// String returns the provider configuration (instance) as the state format
// writes it.
func (pc AbsProviderConfig) String() string {
	var b strings.Builder
	if !pc.Module.IsRoot() {
		b.WriteString(string(pc.Module))
		b.WriteByte('.')
	}
	b.WriteString("provider[")
	b.WriteString(quote(pc.Provider.String()))
	b.WriteString("]")
	if pc.Alias != "" {
		b.WriteByte('.')
		b.WriteString(pc.Alias)
	}
	b.WriteString(pc.Key.String())
	return b.String()
}

// ParseAbsProviderConfig parses the state-file form written by String,
// with an instance key after the alias when there is one.
func ParseAbsProviderConfig(s string) (AbsProviderConfig, error) {
	var pc AbsProviderConfig
	i := strings.Index(s, "provider[")
	if i < 0 {
		return pc, fmt.Errorf("invalid provider configuration address %q", s)
	}
	if i > 0 {
		if s[i-1] != '.' {
			return pc, fmt.Errorf("invalid provider configuration address %q", s)
		}
		pc.Module = ModuleInstance(s[:i-1])
	}
	rest := s[i+len("provider["):]
	if !strings.HasPrefix(rest, `"`) {
		return pc, fmt.Errorf("invalid provider configuration address %q: source must be quoted", s)
	}
	end := strings.Index(rest[1:], `"`)
	if end < 0 {
		return pc, fmt.Errorf("invalid provider configuration address %q: unterminated string", s)
	}
	src := rest[1 : 1+end]
	rest = rest[2+end:]
	if !strings.HasPrefix(rest, "]") {
		return pc, fmt.Errorf("invalid provider configuration address %q: missing ]", s)
	}
	rest = rest[1:]
	if rest != "" {
		if !strings.HasPrefix(rest, ".") || len(rest) == 1 {
			return pc, fmt.Errorf("invalid provider configuration address %q: bad alias", s)
		}
		pc.Alias = rest[1:]
		if i := strings.IndexByte(pc.Alias, '['); i >= 0 {
			k, err := parseKeySuffix(pc.Alias[i:])
			if err != nil || i == 0 {
				return pc, fmt.Errorf("invalid provider configuration address %q: bad instance key", s)
			}
			pc.Alias, pc.Key = pc.Alias[:i], k
		}
	}
	p, err := ParseProviderSource(src)
	if err != nil {
		return pc, err
	}
	pc.Provider = p
	return pc, nil
}

// SourceNamesHost reports whether a source address as written in
// required_providers names its registry host ("HOST/NAMESPACE/TYPE"); a
// provider whose source does not is one a working directory may record
// under either default registry host.
func SourceNamesHost(s string) bool { return strings.Count(s, "/") == 2 }
