package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
)

// redundantProviderBlocks warns, as OpenTofu and Terraform do, about the
// empty provider blocks of a child module m ("proxy provider
// configurations", which only said that the caller passes a
// configuration): one warning per provider local name, at its first
// block, suggesting the required_providers entry that replaces them.
func redundantProviderBlocks(m *Module) diag.Diagnostics {
	type suggestion struct {
		source  addrs.Provider
		keys    []string
		ranges  []hcl.Range
		aliases int
	}
	byName := map[string]*suggestion{}
	for key, pc := range m.ProviderConfigs {
		if pc.Version != "" || pc.Config == nil {
			continue
		}
		if _, more := pc.Config.Content(&hcl.BodySchema{}); more.HasErrors() {
			continue
		}
		s := byName[pc.Name]
		if s == nil {
			s = &suggestion{source: addrs.NewDefaultProvider(pc.Name)}
			if rp, ok := m.Terraform.RequiredProviders[pc.Name]; ok {
				s.source = rp.Provider
			}
			byName[pc.Name] = s
		}
		if pc.Alias != "" {
			s.aliases++
		}
		s.keys = append(s.keys, key)
		s.ranges = append(s.ranges, pc.DeclRange)
	}
	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	slices.Sort(names)
	var ds diag.Diagnostics
	for _, name := range names {
		s := byName[name]
		var b strings.Builder
		fmt.Fprintf(&b, "Earlier versions of Terraform and OpenTofu used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider %q blocks and then adding or updating an entry like the following to the required_providers block of %s:\n", name, m.Path)
		fmt.Fprintf(&b, "    %s = {\n      source = %q\n", name, s.source.ForDisplay())
		if s.aliases > 0 {
			slices.Sort(s.keys)
			b.WriteString("      configuration_aliases = [\n")
			for _, k := range s.keys {
				fmt.Fprintf(&b, "        %s,\n", k)
			}
			b.WriteString("      ]\n")
		}
		b.WriteString("    }")
		first := slices.MinFunc(s.ranges, func(a, b hcl.Range) int { return strings.Compare(a.String(), b.String()) })
		ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Redundant empty provider block", Detail: b.String(), Subject: first.Ptr()})
	}
	return ds
}
