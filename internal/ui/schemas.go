package ui

import (
	"context"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// SchemaSource finds the schema of a resource type. Renderers use it for
// attribute types, nesting, sensitivity and the schema version; every
// renderer also works without one (a nil SchemaSource, or a type it does not
// know), falling back to the shape of the values themselves. Renderers may
// call it from several goroutines at once.
type SchemaSource interface {
	// ResourceTypeSchema returns the schema of the managed resource type
	// (mode addrs.Managed) or data source (addrs.Data) typeName of provider p.
	ResourceTypeSchema(p addrs.Provider, mode addrs.ResourceMode, typeName string) (provider.Schema, bool)
}

// ProviderSchemas is a SchemaSource over the schemas providers reported, by provider.
type ProviderSchemas map[addrs.Provider]*provider.Schemas

// ResourceTypeSchema implements SchemaSource.
func (m ProviderSchemas) ResourceTypeSchema(p addrs.Provider, mode addrs.ResourceMode, typeName string) (provider.Schema, bool) {
	return m[p].ResourceTypeSchema(mode, typeName)
}

// lookupBlock returns the schema block for a resource, or nil.
func lookupBlock(src SchemaSource, p addrs.Provider, r addrs.Resource) *provider.Block {
	if src == nil {
		return nil
	}
	s, ok := src.ResourceTypeSchema(p, r.Mode, r.Type)
	if !ok {
		return nil
	}
	return s.Block
}

// PlanSchemas collects the schemas of every provider a plan uses, for rendering.
func PlanSchemas(ctx context.Context, set *provider.Set, p *plan.Plan) ProviderSchemas {
	out := ProviderSchemas{}
	add := func(pc addrs.AbsProviderConfig) {
		if _, ok := out[pc.Provider]; ok {
			return
		}
		if s, ds := set.Schemas(ctx, pc.Provider); !ds.HasErrors() {
			out[pc.Provider] = s
		}
	}
	for _, c := range p.Changes {
		add(c.ProviderConfig)
	}
	for _, ai := range p.ActionInvocations {
		add(ai.ProviderConfig)
	}
	if p.PriorState != nil {
		for _, r := range p.PriorState.Resources {
			add(r.ProviderConfig)
		}
	}
	return out
}

// StateSchemas collects the schemas of every provider a state uses.
func StateSchemas(ctx context.Context, set *provider.Set, s *state.State) ProviderSchemas {
	out := ProviderSchemas{}
	for _, r := range s.Resources {
		if _, ok := out[r.ProviderConfig.Provider]; ok {
			continue
		}
		if sch, ds := set.Schemas(ctx, r.ProviderConfig.Provider); !ds.HasErrors() {
			out[r.ProviderConfig.Provider] = sch
		}
	}
	return out
}
