package planner

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
)

// validationScopes returns the scope each of resources (of module m) is
// validated in: scope itself, or for the bodies whose references are read
// without problems and do not depend on the instance, one copy of it whose
// evaluation context, holding every value they refer to (all unknown), is
// built once rather than once for each body.
func validationScopes(scope *lang.Scope, m *config.Module, resources []*config.Resource, schemas map[addrs.ConfigResource]provider.Schema) []*lang.Scope {
	scopes := make([]*lang.Scope, len(resources))
	shareable := make([]bool, len(resources))
	var union []*lang.Reference
	n := 0
	for i, r := range resources {
		scopes[i] = scope
		sch, ok := schemas[configAddr(m, r)]
		if !ok {
			continue
		}
		refs, diags := lang.CachedReferencesInBody(r.Config, sch.Block.DecoderSpec())
		if len(diags) > 0 || !lang.InstanceIndependent(refs) {
			continue
		}
		shareable[i] = true
		union = append(union, refs...)
		n++
	}
	if n < 2 {
		return scopes
	}
	shared := scope.NewSharedContext(union)
	if shared == nil {
		return scopes
	}
	withShared := *scope
	withShared.Shared = shared
	for i := range resources {
		if shareable[i] {
			scopes[i] = &withShared
		}
	}
	return scopes
}
