package workdir

import (
	"maps"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/getproviders"
)

// providerTypeConflicts warns, as OpenTofu's init does, when providers of
// the hashicorp and opentofu namespaces with the same type are both
// required (opentofu/foo in one module, hashicorp/foo implied in another):
// most likely one module forgot its required_providers entry.
func providerTypeConflicts(reqs []getproviders.Requirement) diag.Diagnostics {
	byType := map[string][]addrs.Provider{}
	for _, r := range reqs {
		p := r.Provider
		if p.Namespace != "hashicorp" && p.Namespace != "opentofu" {
			continue
		}
		if !slices.ContainsFunc(byType[p.Type], p.SameAs) {
			byType[p.Type] = append(byType[p.Type], p)
		}
	}
	var ds diag.Diagnostics
	for _, typ := range slices.Sorted(maps.Keys(byType)) {
		ps := byType[typ]
		if len(ps) < 2 {
			continue
		}
		names := make([]string, len(ps))
		for i, p := range ps {
			names[i] = p.ForDisplay()
		}
		slices.Sort(names)
		d := diag.Errorf("Potential provider misconfiguration",
			"rig found several providers of type %s (%s) required, which may be a mistake: a module that uses one without a required_providers entry gets hashicorp/%s.\n\nIf this is intended, you can ignore this warning.",
			typ, strings.Join(names, ", "), typ)
		d.Severity = diag.Warning
		ds = ds.Append(d)
	}
	return ds
}
