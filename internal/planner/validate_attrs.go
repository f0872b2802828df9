package planner

import (
	"maps"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
)

// validateAttributeReferences checks, as OpenTofu's validation does
// before anything is evaluated, that every reference to an attribute of a
// resource, data source or ephemeral resource names an attribute or
// nested block its schema has ("Unsupported attribute", with the nearest
// name), in the local values and resource bodies of every module of the
// tree. The outputs are checked with their evaluation (validateOutputs).
// A resource body's references are those the graph found
// (lang.CachedReferencesInBody): the walk is not repeated.
func validateAttributeReferences(cfg *config.Module, schemas map[addrs.ConfigResource]provider.Schema) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, m := range cfg.AllModules() {
		for _, name := range slices.Sorted(maps.Keys(m.Locals)) {
			refs, _ := lang.ReferencesInExpr(m.Locals[name].Expr)
			ds = ds.Append(attributeReferenceErrors(m, schemas, refs))
		}
		for _, r := range allResources(m) {
			sch, ok := schemas[configAddr(m, r)]
			if !ok || sch.Block == nil || r.Config == nil {
				continue
			}
			refs, _ := lang.CachedReferencesInBody(r.Config, sch.Block.DecoderSpec())
			ds = ds.Append(attributeReferenceErrors(m, schemas, refs))
		}
	}
	return diag.SortBySource(ds)
}

// attributeReferenceErrors checks refs, made in module m, to the
// attributes of m's resources against their schemas. Problems of the
// references themselves are lang.CheckReferences'.
func attributeReferenceErrors(m *config.Module, schemas map[addrs.ConfigResource]provider.Schema, refs []*lang.Reference) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, ref := range refs {
		if ref == nil || ref.Kind != lang.ResourceRef || len(ref.Remaining) == 0 {
			continue
		}
		sch, ok := schemas[addrs.ConfigResource{Module: m.Path, Resource: ref.Resource}]
		if !ok || sch.Block == nil {
			continue
		}
		if d := checkAttributeSteps(sch.Block, ref.Remaining); d != nil {
			ds = ds.Append(*d)
		}
	}
	return ds
}
