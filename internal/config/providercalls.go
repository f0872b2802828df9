package config

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// callProviderProblems checks, as OpenTofu does when it loads a
// configuration, how the module call that loaded child hands provider
// configurations to it: a module under a call with count, for_each, enabled
// or depends_on (or under a module called so) may not configure providers;
// a configuration the child makes itself cannot be passed in; every
// configuration_aliases entry of the child must be configured or passed; and
// what is passed must be of the provider type the child expects.
func callProviderProblems(parent *Module, call *ModuleCall, child *Module) diag.Diagnostics {
	var ds diag.Diagnostics
	configured := configuredProviders(child)
	if len(configured) > 0 {
		if rng := repetitionRange(child); rng != nil {
			ds = ds.Append(diag.At(*rng, "Module is incompatible with count, for_each, enabled and depends_on",
				fmt.Sprintf("The module at %s is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, enabled or depends_on arguments.\n\nIf you also control the module %q, consider updating this module to instead expect provider configurations to be passed by its caller.", child.Path, call.Source)))
		}
	}

	passed := map[string]bool{}
	for _, p := range call.Providers {
		passed[p.InChild.String()] = true
	}
	for _, p := range call.Providers {
		if configured[p.InChild.String()] {
			ds = ds.Append(diag.At(p.InChild.NameRange, "Cannot override provider configuration",
				fmt.Sprintf("The module %s configures %s itself, so the configuration %s passes under that name cannot take its place.", child.Path, p.InChild.String(), moduleText(parent))))
			continue
		}
		ds = ds.Append(passedProviderType(parent, child, p))
	}

	names := make([]string, 0, len(child.Terraform.RequiredProviders))
	for name := range child.Terraform.RequiredProviders {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		rp := child.Terraform.RequiredProviders[name]
		for _, alias := range rp.ConfigurationAliases {
			if configured[alias] || passed[alias] {
				continue
			}
			ds = ds.Append(diag.At(call.DeclRange, "Missing required provider configuration",
				fmt.Sprintf("The module %s declares that it needs a configuration of provider %s named %q (configuration_aliases), and the call does not pass one.\n\nAdd an entry for %s to the \"providers\" argument of the module block, choosing the configuration the module should use for that purpose.", child.Path, rp.Provider.ForDisplay(), alias, alias)))
		}
	}
	return ds
}

// passedProviderType checks one entry of a module call's providers
// argument: the name the child receives it under should be declared in the
// child's required_providers, and the configuration passed must be of the
// provider type that name stands for there.
func passedProviderType(parent, child *Module, p PassedProvider) diag.Diagnostics {
	var ds diag.Diagnostics
	inChild := p.InChild.String()
	childType := child.ProviderFor(p.InChild.Name)
	_, declared := child.Terraform.RequiredProviders[p.InChild.Name]
	if !declared && !childType.IsBuiltIn() && !declaredAlias(child, inChild) && !child.hasEmptyProviderConfig(inChild) {
		if childType.Namespace == "hashicorp" && addrs.IsDefaultRegistryHost(childType.Hostname) {
			ds = ds.Append(diag.WarningAt(p.InChild.NameRange, "Reference to undefined provider",
				fmt.Sprintf("No provider with the local name %q is declared in %s, so rig takes it to mean %q.\n\nIf you also control the child module, add a required_providers entry named %q with the source address %q.",
					p.InChild.Name, child.Path, childType.ForDisplay(), p.InChild.Name, childType.ForDisplay())))
		} else {
			ds = ds.Append(diag.At(p.InChild.NameRange, "Reference to undefined provider",
				fmt.Sprintf("The child module declares no provider requirement with the local name %q.\n\nIf you also control the child module, you can add a required_providers entry named %q with the source address %q to accept this provider configuration.", p.InChild.Name, p.InChild.Name, childType.ForDisplay())))
		}
	}
	// A name the caller does not declare has no type of its own to
	// compare: what is wrong there is reported as undefined.
	if _, ok := parent.Terraform.RequiredProviders[p.InParent.Name]; !ok {
		return ds
	}
	parentType := parent.ProviderFor(p.InParent.Name)
	if childType.SameAs(parentType) {
		return ds
	}
	detail := fmt.Sprintf("The local name %q in %s represents provider %q, but %q in %s represents %q.\n\nEach provider has its own configuration schema, so the module's %q can only be given a configuration of %s, which %s does not require.",
		p.InParent.String(), moduleText(parent), parentType.ForDisplay(), inChild, child.Path, childType.ForDisplay(), inChild, childType.ForDisplay(), moduleText(parent))
	for _, name := range sortedRequiredNames(parent) {
		if parent.Terraform.RequiredProviders[name].Provider.SameAs(childType) {
			detail = fmt.Sprintf("The configuration assigned is for provider %q, but the local name %q in %s represents %q.\n\nPass the configuration named %q instead.",
				childType.ForDisplay(), p.InParent.Name, moduleText(parent), parentType.ForDisplay(), name)
			break
		}
	}
	return ds.Append(diag.At(p.InParent.NameRange, "Provider type mismatch", detail))
}

// undefinedPassedProviders warns, as OpenTofu does, about the module calls
// of m that pass a provider configuration under a name m neither declares
// in required_providers nor configures with a provider block.
func undefinedPassedProviders(m *Module) diag.Diagnostics {
	var ds diag.Diagnostics
	configured := configuredProviders(m)
	names := make([]string, 0, len(m.ModuleCalls))
	for name := range m.ModuleCalls {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, p := range m.ModuleCalls[name].Providers {
			if p.InParent.Alias != "" || configured[p.InParent.Name] {
				continue
			}
			if _, ok := m.Terraform.RequiredProviders[p.InParent.Name]; ok {
				continue
			}
			impl := m.ProviderFor(p.InParent.Name)
			if impl.IsBuiltIn() {
				continue
			}
			ds = ds.Append(diag.WarningAt(p.InParent.NameRange, "Reference to undefined provider",
				fmt.Sprintf("No provider with the local name %q is declared in %s, so rig takes it to mean provider %q.\n\nTo say so and silence this warning, add to %s a required_providers entry named %q with source = %q, or another source address if that is what you mean.",
					p.InParent.Name, moduleText(m), impl.ForDisplay(), moduleText(m), p.InParent.Name, impl.ForDisplay())))
		}
	}
	return ds
}

// configuredProviders returns the keys ("name" or "name.alias") of m's
// provider blocks that configure something: those with arguments or a
// version, not the empty blocks that only said a configuration is passed in.
func configuredProviders(m *Module) map[string]bool {
	out := map[string]bool{}
	for key, pc := range m.ProviderConfigs {
		if !isProxyProviderBlock(pc) {
			out[key] = true
		}
	}
	return out
}

// hasEmptyProviderConfig reports whether m has an empty provider block
// under key.
func (m *Module) hasEmptyProviderConfig(key string) bool {
	pc, ok := m.ProviderConfigs[key]
	return ok && isProxyProviderBlock(pc)
}

// isProxyProviderBlock reports whether pc is an empty provider block: no
// argument, no nested block and no version.
func isProxyProviderBlock(pc *Provider) bool {
	if pc.Version != "" || pc.Config == nil {
		return pc.Version == ""
	}
	_, more := pc.Config.Content(&hcl.BodySchema{})
	return !more.HasErrors()
}

// declaredAlias reports whether key ("name.alias") is among the
// configuration_aliases of m's required_providers.
func declaredAlias(m *Module, key string) bool {
	for _, rp := range m.Terraform.RequiredProviders {
		if slices.Contains(rp.ConfigurationAliases, key) {
			return true
		}
	}
	return false
}

// repetitionRange returns where count, for_each, enabled or depends_on is
// set on the call of m or of the nearest module above it that has one; nil
// when none has.
func repetitionRange(m *Module) *hcl.Range {
	for mod := m; mod != nil && mod.Parent != nil; mod = mod.Parent {
		call := mod.call()
		if call == nil {
			continue
		}
		switch {
		case call.Count != nil:
			return call.Count.Range().Ptr()
		case call.ForEach != nil:
			return call.ForEach.Range().Ptr()
		case call.Enabled != nil:
			return call.Enabled.Range().Ptr()
		case len(call.DependsOn) > 0:
			return call.DependsOn[0].SourceRange().Ptr()
		}
	}
	return nil
}

func sortedRequiredNames(m *Module) []string {
	names := make([]string, 0, len(m.Terraform.RequiredProviders))
	for name := range m.Terraform.RequiredProviders {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// moduleText names m in a sentence: "the root module" or "module.a.module.b".
func moduleText(m *Module) string {
	if m.Parent == nil {
		return "the root module"
	}
	return m.Path.String()
}

// IsProxyProvider reports whether m's provider block under key ("name" or
// "name.alias") is only a proxy: an empty block in a child module whose
// caller passes a configuration under that name. The configuration passed
// is the one used, as in OpenTofu and Terraform; the block configures
// nothing.
func (m *Module) IsProxyProvider(key string) bool {
	if !m.hasEmptyProviderConfig(key) {
		return false
	}
	call := m.call()
	if call == nil {
		return false
	}
	for _, p := range call.Providers {
		if p.InChild.String() == key {
			return true
		}
	}
	return false
}
