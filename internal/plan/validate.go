package plan

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// unknownData answers every reference with an unknown value, so that a
// configuration can be checked without variables or state.
type unknownData struct{}

func (unknownData) InputVariable(string, hcl.Range) (cty.Value, diag.Diagnostics) {
	return cty.DynamicVal, nil
}
func (unknownData) LocalValue(string, hcl.Range) (cty.Value, diag.Diagnostics) {
	return cty.DynamicVal, nil
}
func (unknownData) Resource(addrs.Resource, hcl.Range) (cty.Value, diag.Diagnostics) {
	return cty.DynamicVal, nil
}

// Validate checks a configuration without state or variable values:
// references, cycles, resource types, and every resource body against its
// schema (with all referenced values unknown).
func Validate(ctx context.Context, cfg *config.Module, providers *provider.Set) diag.Diagnostics {
	p := &planner{ctx: ctx, cfg: cfg, providers: providers, schemas: map[addrs.Resource]provider.Schema{}}
	var ds diag.Diagnostics
	ds = ds.Append(unsupportedConstructs(cfg))
	ds = ds.Append(lang.CheckReferences(cfg))
	for _, r := range allResources(cfg) {
		sch, more := p.schemaOf(r)
		ds = ds.Append(more)
		if !more.HasErrors() {
			p.schemas[r.Addr] = sch
		}
	}
	if ds.HasErrors() {
		return ds
	}
	_, more := buildRefGraph(cfg, func(r *config.Resource) (*provider.Block, bool) {
		s, ok := p.schemas[r.Addr]
		return s.Block, ok
	})
	ds = ds.Append(more)
	fns, more := ProviderFunctions(ctx, providers, cfg)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(validateBodies(cfg, p.schemas, fns))
}

// validateBodies decodes every resource body against its schema with all
// referenced values unknown, catching unsupported arguments, type errors and
// unknown functions before anything is planned. Provider functions are
// called only with known arguments.
func validateBodies(cfg *config.Module, schemas map[addrs.Resource]provider.Schema, fns *lang.ProviderFunctions) diag.Diagnostics {
	var ds diag.Diagnostics
	scope := &lang.Scope{Data: unknownData{}, ModuleDir: ".", RootDir: ".", Cwd: ".", ProviderFunctions: fns}
	for _, r := range allResources(cfg) {
		sch, ok := schemas[r.Addr]
		if !ok {
			continue
		}
		inst := lang.InstanceData{}
		switch {
		case r.Count != nil:
			inst.CountIndex = cty.UnknownVal(cty.Number)
		case r.ForEach != nil:
			inst.EachKey, inst.EachValue = cty.UnknownVal(cty.String), cty.DynamicVal
		}
		s := *scope
		s.Instance = inst
		val, more := s.EvalBlock(r.Config, sch.Block.DecoderSpec())
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		ds = ds.Append(validateComputed(r, sch.Block, val))
	}
	return ds
}

// validateComputed rejects configurations that set computed-only attributes.
func validateComputed(r *config.Resource, b *provider.Block, val cty.Value) diag.Diagnostics {
	var ds diag.Diagnostics
	if val.IsNull() || !val.IsKnown() {
		return nil
	}
	for name, a := range b.Attributes {
		if a.Computed && !a.Optional && !val.GetAttr(name).IsNull() {
			rng := r.DeclRange
			if attrs, hds := r.Config.JustAttributes(); !hds.HasErrors() {
				if at, ok := attrs[name]; ok {
					rng = at.NameRange
				}
			}
			ds = ds.Append(diag.At(rng, "Invalid configuration", "The attribute \""+name+"\" of "+r.Addr.Type+" is read-only: it is computed by the provider and cannot be set."))
		}
	}
	return ds
}

// ResourceGraph returns the configuration's resources and their
// dependencies (through local values too): an edge A→B means B depends on A.
func ResourceGraph(ctx context.Context, cfg *config.Module, providers *provider.Set) (*dag.Graph[addrs.Resource], diag.Diagnostics) {
	p := &planner{ctx: ctx, cfg: cfg, providers: providers, schemas: map[addrs.Resource]provider.Schema{}}
	var ds diag.Diagnostics
	for _, r := range allResources(cfg) {
		sch, more := p.schemaOf(r)
		ds = ds.Append(more)
		if !more.HasErrors() {
			p.schemas[r.Addr] = sch
		}
	}
	rg, more := buildRefGraph(cfg, func(r *config.Resource) (*provider.Block, bool) {
		s, ok := p.schemas[r.Addr]
		return s.Block, ok
	})
	ds = ds.Append(more)
	resources := allResources(cfg)
	g := dag.NewSized[addrs.Resource](len(resources))
	for _, r := range resources {
		g.Add(r.Addr)
	}
	if rg != nil {
		for _, r := range allResources(cfg) {
			for _, dep := range rg.resourceDeps[r.Addr] {
				g.Connect(dep, r.Addr)
			}
		}
	}
	return g, ds
}
