package planner

import (
	"fmt"

	"github.com/rig-iac/rig/internal/plan"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
)

// importTarget is one expanded import block.
type importTarget struct {
	id   string
	decl *config.Import
	// inst is the import block instance's each.key and each.value.
	inst lang.InstanceData
}

// expandImports evaluates the root module's import blocks (for_each, the
// target key and the id) into the instances to import, checking that
// each target is declared and named once.
func (p *planner) expandImports() diag.Diagnostics {
	var ds diag.Diagnostics
	p.imports = map[addrs.AbsResourceInstance]importTarget{}
	for _, imp := range p.cfg.Imports {
		scope := p.eval.Scope(addrs.RootModule, lang.InstanceData{})
		exp, more := eval.ExpandRepetition(scope, nil, imp.ForEach)
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		for _, k := range exp.Keys {
			s := p.eval.Scope(addrs.RootModule, exp.InstanceData(k))
			key := imp.Key
			if imp.KeyExpr != nil {
				kv, more := s.EvalExpr(imp.KeyExpr, cty.DynamicPseudoType)
				ds = ds.Append(more)
				if more.HasErrors() {
					continue
				}
				var err error
				if key, err = addrs.KeyFromValue(kv); err != nil {
					ds = ds.Append(diag.At(imp.KeyExpr.Range(), "Invalid import address", fmt.Sprintf("The instance key of the import target is not valid: %s.", err)))
					continue
				}
			}
			addr := imp.To.Instance(key).Absolute(imp.ToModule)
			id, more := s.EvalExpr(imp.ID, cty.String)
			ds = ds.Append(more)
			if more.HasErrors() {
				continue
			}
			if !id.IsKnown() || id.IsNull() {
				ds = ds.Append(diag.At(imp.ID.Range(), "Invalid import id argument",
					"The import block's id must be known during planning and not null: it may refer only to variables, locals and values known before apply."))
				continue
			}
			if marks.Contains(id) {
				ds = ds.Append(diag.At(imp.ID.Range(), "Invalid import id argument", "The import ID cannot be sensitive."))
				continue
			}
			id, _ = id.UnmarkDeep()
			m := p.cfg.Descendant(imp.ToModule.Module())
			if p.generating != nil && (m == nil || m.ResourceByAddr(imp.To) == nil) {
				ds = ds.Append(p.addGenerateTarget(addr, importTarget{id: id.AsString(), decl: imp, inst: exp.InstanceData(k)}))
				continue
			}
			if m == nil || m.ResourceByAddr(imp.To) == nil {
				ds = ds.Append(diag.At(imp.ToRange, "Configuration for import target does not exist",
					fmt.Sprintf("The configuration for the given import target %s does not exist. All target instances must have an associated configuration to be imported.", addr)))
				continue
			}
			if imp.Provider != nil {
				// The object is imported with, and then managed by, the
				// resource's own provider configuration: the import block
				// may only name that one.
				want := p.providerConfigAddr(m, m.ResourceByAddr(imp.To))
				if got := ResolveProviderConfig(p.cfg, imp.Provider.Name, imp.Provider.Alias); got != want {
					ds = ds.Append(diag.At(imp.DeclRange, "Invalid import provider argument",
						fmt.Sprintf("The provider argument in the import block (%s) must be the provider configuration of the target resource %s, which is %s.", got, addr, want)))
					continue
				}
			}
			if prev, dup := p.imports[addr]; dup {
				ds = ds.Append(diag.At(imp.DeclRange, "Duplicate import configuration",
					fmt.Sprintf("An import block for the resource %s was already declared at %s. A resource can have only one import block.", addr, prev.decl.DeclRange)))
				continue
			}
			p.imports[addr] = importTarget{id: id.AsString(), decl: imp, inst: exp.InstanceData(k)}
		}
	}
	return ds
}

// importObject imports the remote object an import block names for addr
// and reads it, recording it in the refreshed state: the prior object of
// its plan.
func (p *planner) importObject(prov provider.Interface, sch provider.Schema, pc addrs.AbsProviderConfig, addr addrs.AbsResourceInstance, t importTarget) (cty.Value, []byte, diag.Diagnostics) {
	oaddr := addrs.ObjectAddr{Instance: addr}
	typeName := addr.Resource.Resource.Type
	hooks := p.refreshHooks()
	if ih, ok := hooks.(plan.ImportBlockHooks); ok {
		ih.PrePlanImport(addr, t.id)
	}
	if g, ok := p.generatedObject(addr, t.id); ok {
		hooks.PreRefresh(oaddr, g.Object)
		hooks.PostRefresh(oaddr, g.Object)
		return p.recordImportBlockObject(sch, pc, addr, g.Object, g.Private, nil)
	}
	resp := prov.ImportResourceState(p.ctx, provider.ImportRequest{TypeName: typeName, ID: t.id})
	ds := withAddr(resp.Diagnostics, oaddr)
	if ds.HasErrors() {
		return cty.NilVal, nil, ds
	}
	var imported *provider.ImportedObject
	for i := range resp.Imported {
		if resp.Imported[i].TypeName == "" || resp.Imported[i].TypeName == typeName {
			imported = &resp.Imported[i]
			break
		}
	}
	if imported == nil {
		return cty.NilVal, nil, ds.Append(diag.At(t.decl.DeclRange, "Import returned no resources",
			fmt.Sprintf("While attempting to import with ID %s, the provider returned no instance states.", t.id)))
	}
	meta, more := p.eval.ProviderMeta(p.ctx, p.providers, addr.Module, pc.Provider, addr.Resource.Resource.String())
	if ds = ds.Append(more); ds.HasErrors() {
		return cty.NilVal, nil, ds
	}
	hooks.PreRefresh(oaddr, imported.State)
	read := prov.ReadResource(p.ctx, provider.ReadRequest{TypeName: typeName, PriorState: imported.State, Private: imported.Private, ProviderMeta: meta})
	if ds = ds.Append(withAddr(read.Diagnostics, oaddr)); ds.HasErrors() {
		return cty.NilVal, nil, ds
	}
	hooks.PostRefresh(oaddr, read.NewState)
	if read.NewState == cty.NilVal || read.NewState.IsNull() {
		return cty.NilVal, nil, ds.Append(diag.At(t.decl.DeclRange, "Cannot import non-existent remote object",
			fmt.Sprintf("While attempting to import an existing object to %q, the provider detected that no object exists with the given id. Only pre-existing objects can be imported; check that the id is correct and that it is associated with the provider's configured region or endpoint, or use \"rig apply\" to create a new remote object for this resource.", addr)))
	}
	return p.recordImportBlockObject(sch, pc, addr, read.NewState, read.Private, ds)
}

// generatedObject returns the object GenerateConfig already imported for
// addr with the given ID, if it did.
func (p *planner) generatedObject(addr addrs.AbsResourceInstance, id string) (GeneratedResource, bool) {
	for _, g := range p.opts.Generated {
		if g.ID == id && g.Addr.Compare(addr) == 0 && g.Object != cty.NilVal {
			return g, true
		}
	}
	return GeneratedResource{}, false
}

// recordImportBlockObject records an imported and read object in the refreshed
// state and returns it with ds.
func (p *planner) recordImportBlockObject(sch provider.Schema, pc addrs.AbsProviderConfig, addr addrs.AbsResourceInstance, v cty.Value, private []byte, ds diag.Diagnostics) (cty.Value, []byte, diag.Diagnostics) {
	obj, err := plan.NewStateObject(pc.Provider, addr.Resource.Resource.Type, sch, v)
	if err != nil {
		return cty.NilVal, nil, ds.Append(fmt.Errorf("recording %s: %w", addr, err))
	}
	obj.Status = state.Ready
	obj.Private = private
	p.mu.Lock()
	p.refreshed.SetObject(addrs.ObjectAddr{Instance: addr}, obj, pc)
	p.mu.Unlock()
	return v, private, ds
}
