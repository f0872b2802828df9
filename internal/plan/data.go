package plan

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// planDataResource reads a data source during planning when its
// configuration is wholly known; otherwise its value stays unknown and a
// Read change defers the read to apply.
func (p *planner) planDataResource(r *config.Resource) diag.Diagnostics {
	var ds diag.Diagnostics
	absAddr := r.Addr.Absolute(addrs.RootModule)
	p.mu.Lock()
	p.handled[absAddr] = true
	sch := p.schemas[r.Addr]
	p.mu.Unlock()
	ty := sch.Block.ImpliedType()
	pc := p.providerConfigAddr(r)
	prov, more := p.configuredProvider(pc)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	exp, more := Expand(p.eval.Scope(lang.InstanceData{}), r)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	vals := map[addrs.InstanceKey]cty.Value{}
	deferred := p.dependsOnChanges(r)
	for _, k := range exp.Keys {
		addr := absAddr.Instance(k)
		scope := p.eval.Scope(exp.InstanceData(k))
		cfg, more := scope.EvalBlock(r.Config, sch.Block.DecoderSpec())
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		ds = ds.Append(prov.ValidateDataResourceConfig(p.ctx, r.Addr.Type, cfg))
		if deferred || !cfg.IsWhollyKnown() {
			after := plannedDataObject(sch.Block, cfg)
			vals[k] = after
			p.addChange(&ResourceInstanceChange{Addr: addr, ProviderConfig: pc, Action: Read,
				Before: cty.NullVal(ty), After: after, Dependencies: absResources(p.rg.resourceDeps[r.Addr])})
			continue
		}
		resp := prov.ReadDataSource(p.ctx, provider.ReadDataRequest{TypeName: r.Addr.Type, Config: cfg})
		ds = ds.Append(withAddr(resp.Diagnostics, addrs.ObjectAddr{Instance: addr}))
		if resp.Diagnostics.HasErrors() {
			continue
		}
		vals[k] = resp.State
		obj, err := NewStateObject(sch, resp.State)
		if err != nil {
			ds = ds.Append(err)
			continue
		}
		p.mu.Lock()
		p.refreshed.SetObject(addrs.ObjectAddr{Instance: addr}, obj, pc)
		p.mu.Unlock()
	}
	p.mu.Lock()
	p.planned[r.Addr] = exp.WholeValue(vals)
	p.mu.Unlock()
	return ds
}

// dependsOnChanges reports whether a data source refers to (or names in
// depends_on) a managed resource with a planned change other than a no-op.
// OpenTofu then reads it during apply, after that change, even when its
// configuration is known (forcePlanReadData: references to managed
// resources count as depends_on for data sources).
func (p *planner) dependsOnChanges(r *config.Resource) bool {
	refs, _ := resourceReferences(r, func(*config.Resource) (*provider.Block, bool) {
		s, ok := p.schemas[r.Addr]
		return s.Block, ok
	})
	managed := map[addrs.Resource]bool{}
	for _, ref := range refs {
		if ref.Kind == lang.ResourceRef && ref.Resource.Mode == addrs.Managed {
			managed[ref.Resource] = true
		}
	}
	if len(managed) == 0 {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.changes {
		if managed[c.Addr.Resource.Resource] && c.Action != NoOp {
			return true
		}
	}
	return false
}

// plannedDataObject is the value of a data source read during apply: the
// configured values, with computed attributes the configuration leaves null
// unknown (OpenTofu's objchange.PlannedDataResourceObject, for top-level
// attributes).
func plannedDataObject(b *provider.Block, cfg cty.Value) cty.Value {
	if cfg.IsNull() || !cfg.IsKnown() {
		return cty.UnknownVal(b.ImpliedType())
	}
	vals := cfg.AsValueMap()
	for name, a := range b.Attributes {
		if a.Computed && vals[name].IsNull() {
			vals[name] = cty.UnknownVal(a.ImpliedType())
		}
	}
	return cty.ObjectVal(vals)
}
