package config

import (
	"github.com/rig-iac/rig/internal/diag"
)

// importProviderProblems checks the provider argument of m's import blocks
// as OpenTofu does: it only says which provider configuration generates
// the configuration of a resource the module does not declare. A target in
// another module gets its provider from that module's call; a resource
// block the module declares names its own, which the import block may
// repeat but not contradict.
func (m *Module) importProviderProblems() diag.Diagnostics {
	var ds diag.Diagnostics
	for _, imp := range m.Imports {
		if imp.Provider == nil {
			continue
		}
		if !imp.ToModule.IsRoot() {
			ds = ds.Append(diag.At(imp.ProviderRange, "Invalid import provider argument",
				"An import block may name a provider only when it imports into a resource this module does not declare, whose configuration it generates.\n\nSet the providers of a module's resources, imported ones included, with the providers argument of its module block."))
			continue
		}
		r := m.ManagedResources[imp.To]
		switch {
		case r == nil:
		case r.ProviderConfigRef == nil:
			ds = ds.Append(diag.At(imp.ProviderRange, "Invalid import provider argument",
				"The import block names a provider, so the resource block it imports into must name the same one in its own provider argument."))
		case r.ProviderConfigRef.Name != imp.Provider.Name || r.ProviderConfigRef.Alias != imp.Provider.Alias:
			ds = ds.Append(diag.At(imp.ProviderRange, "Invalid import provider argument",
				"The provider argument of the resource block it imports into names another provider configuration than the import block's: they must match."))
		}
	}
	return ds
}
