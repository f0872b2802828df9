package planner

import (
	"fmt"
	"slices"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/instance"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
)

// importTarget is one expanded import block.
type importTarget struct {
	id string
	// identity is the import block's identity argument, evaluated (its
	// type checked against the identity schema when the object is
	// imported); cty.NilVal when id names the object.
	identity cty.Value
	decl     *config.Import
	// inst is the import block instance's each.key and each.value.
	inst lang.InstanceData
}

// expandImports evaluates the root module's import blocks (for_each, the
// target key and the id) into the instances to import, checking that
// each target is declared and named once. The import blocks of child
// modules (Terraform 1.16) are gathered here and expanded in each
// instance of their module when the walk reaches their target
// (expandChildImports).
func (p *planner) expandImports() diag.Diagnostics {
	var ds diag.Diagnostics
	p.imports = map[addrs.AbsResourceInstance]importTarget{}
	for _, imp := range p.cfg.Imports {
		ds = ds.Append(p.expandImportBlock(p.cfg, imp, addrs.RootModule))
	}
	return ds.Append(p.gatherChildImports())
}

// expandImportBlock expands import block imp of module decl in its
// instance di into p.imports.
func (p *planner) expandImportBlock(decl *config.Module, imp *config.Import, di addrs.ModuleInstance) diag.Diagnostics {
	var ds diag.Diagnostics
	scope := p.eval.Scope(di, lang.InstanceData{})
	exp, more := eval.ExpandRepetition(scope, nil, imp.ForEach)
	ds = ds.Append(more)
	if more.HasErrors() {
		return ds
	}
	for _, k := range exp.Keys {
		s := p.eval.Scope(di, exp.InstanceData(k))
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
		addr := imp.To.Instance(key).Absolute(joinInstance(di, imp.ToModule))
		target, more := evalImportTarget(s, imp)
		ds = ds.Append(more)
		if more.HasErrors() {
			continue
		}
		target.inst = exp.InstanceData(k)
		m := p.cfg.Descendant(joinModule(decl.Path, imp.ToModule.Module()))
		if p.generating != nil && decl == p.cfg && (m == nil || m.ResourceByAddr(imp.To) == nil) {
			ds = ds.Append(p.addGenerateTarget(addr, target))
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
			if got := ResolveProviderConfig(decl, imp.Provider.Name, imp.Provider.Alias); got != want {
				ds = ds.Append(diag.At(imp.DeclRange, "Invalid import provider argument",
					fmt.Sprintf("The provider argument in the import block (%s) must be the provider configuration of the target resource %s, which is %s.", got, addr, want)))
				continue
			}
		}
		p.mu.Lock()
		prev, dup := p.imports[addr]
		if !dup {
			p.imports[addr] = target
		}
		p.mu.Unlock()
		if dup {
			ds = ds.Append(diag.At(imp.DeclRange, "Duplicate import configuration",
				fmt.Sprintf("An import block for the resource %s was already declared at %s. A resource can have only one import block.", addr, prev.decl.DeclRange)))
		}
	}
	return ds
}

// importObject imports the remote object an import block names for addr
// and reads it, recording it in the refreshed state: the prior object of
// its plan.
//
// The object's identity comes back too (cty.NilVal when the type declares
// none).
func (p *planner) importObject(prov provider.Interface, sch provider.Schema, pc addrs.AbsProviderConfig, addr addrs.AbsResourceInstance, t importTarget) (cty.Value, []byte, cty.Value, diag.Diagnostics) {
	oaddr := addrs.ObjectAddr{Instance: addr}
	typeName := addr.Resource.Resource.Type
	hooks := p.refreshHooks()
	if ih, ok := hooks.(plan.ImportBlockHooks); ok {
		ih.PrePlanImport(addr, t.shownID())
	}
	identity, ds := importIdentity(sch, t, addr)
	if ds.HasErrors() {
		return cty.NilVal, nil, cty.NilVal, ds
	}
	if g, ok := p.generatedObject(addr, t); ok {
		hooks.PreRefresh(oaddr, g.Object)
		hooks.PostRefresh(oaddr, g.Object)
		return p.recordImportBlockObject(sch, pc, addr, instance.Imported{Value: g.Object, Private: g.Private, Identity: g.Identity}, nil)
	}
	resp := prov.ImportResourceState(p.ctx, provider.ImportRequest{TypeName: typeName, ID: t.id, Identity: identity})
	ds = resp.Diagnostics.WithAddress(oaddr)
	if ds.HasErrors() {
		return cty.NilVal, nil, cty.NilVal, ds
	}
	var imported *provider.ImportedObject
	for i := range resp.Imported {
		if resp.Imported[i].TypeName == "" || resp.Imported[i].TypeName == typeName {
			imported = &resp.Imported[i]
			break
		}
	}
	if imported == nil {
		return cty.NilVal, nil, cty.NilVal, ds.Append(diag.At(t.decl.DeclRange, "Import returned no resources",
			fmt.Sprintf("While attempting to import with %s, the provider returned no instance states.", t.describe())))
	}
	got, more := instance.ReadImported(p.ctx, instance.ImportReadRequest{
		Addr: addr, Object: *imported, Provider: prov, ProviderConfig: pc,
		Eval: p.eval, Providers: p.providers, Hooks: hooks, Subject: &t.decl.DeclRange,
	})
	if ds = ds.Append(more); ds.HasErrors() {
		return cty.NilVal, nil, cty.NilVal, ds
	}
	return p.recordImportBlockObject(sch, pc, addr, got, ds)
}

// generatedObject returns the object GenerateConfig already imported for
// addr with the given ID, if it did.
func (p *planner) generatedObject(addr addrs.AbsResourceInstance, t importTarget) (GeneratedResource, bool) {
	for _, g := range p.opts.Generated {
		if g.ID == t.id && sameIdentity(g.ImportIdentity, t.identity) && g.Addr.Compare(addr) == 0 && g.Object != cty.NilVal {
			return g, true
		}
	}
	return GeneratedResource{}, false
}

// recordImportBlockObject records an imported and read object in the refreshed
// state and returns it with ds.
func (p *planner) recordImportBlockObject(sch provider.Schema, pc addrs.AbsProviderConfig, addr addrs.AbsResourceInstance, imp instance.Imported, ds diag.Diagnostics) (cty.Value, []byte, cty.Value, diag.Diagnostics) {
	obj, err := instance.ImportedObject(pc, addr, sch, imp)
	if err != nil {
		return cty.NilVal, nil, cty.NilVal, ds.Append(diag.FromError(err))
	}
	p.mu.Lock()
	p.refreshed.SetObject(addrs.ObjectAddr{Instance: addr}, obj, pc)
	p.mu.Unlock()
	return imp.Value, imp.Private, imp.Identity, ds
}

// evalImportTarget evaluates an import block's id or identity in scope s:
// known during planning, not null, not sensitive.
func evalImportTarget(s *lang.Scope, imp *config.Import) (importTarget, diag.Diagnostics) {
	expr, what, ty := imp.ID, "id", cty.String
	if imp.Identity != nil {
		expr, what, ty = imp.Identity, "identity", cty.DynamicPseudoType
	}
	v, ds := s.EvalExpr(expr, ty)
	if ds.HasErrors() {
		return importTarget{}, ds
	}
	if !v.IsWhollyKnown() || v.IsNull() {
		return importTarget{}, ds.Append(diag.At(expr.Range(), "Invalid import "+what+" argument",
			"The import block's "+what+" must be known during planning and not null: it may refer only to variables, locals and values known before apply."))
	}
	if marks.Contains(v) {
		return importTarget{}, ds.Append(diag.At(expr.Range(), "Invalid import "+what+" argument", "The import "+what+" cannot be sensitive."))
	}
	v, _ = v.UnmarkDeep()
	if imp.Identity != nil {
		if !v.Type().IsObjectType() && !v.Type().IsMapType() {
			return importTarget{}, ds.Append(diag.At(expr.Range(), "Invalid import identity argument",
				"The import block's identity must be an object of the resource type's identity attributes, such as { id = \"…\" }."))
		}
		return importTarget{identity: v, decl: imp}, ds
	}
	return importTarget{id: v.AsString(), decl: imp}, ds
}

// describe says how the target names its object, for messages: `ID "x"`
// or `identity {"id":"x"}`.
func (t importTarget) describe() string {
	if t.identity == cty.NilVal {
		return fmt.Sprintf("ID %q", t.id)
	}
	return "identity " + plan.IdentityText(t.identity)
}

// importIdentity converts the identity an import block names to the type
// of the resource type's identity schema: the attributes it declares, none
// other, those required for import set. It returns cty.NilVal for an
// import by ID.
func importIdentity(sch provider.Schema, t importTarget, addr addrs.AbsResourceInstance) (cty.Value, diag.Diagnostics) {
	if t.identity == cty.NilVal {
		return cty.NilVal, nil
	}
	rng := t.decl.Identity.Range()
	if sch.Identity == nil {
		return cty.NilVal, diag.Diagnostics{diag.At(rng, "Invalid import identity argument",
			fmt.Sprintf("The resource type %s declares no resource identity, so %s can only be imported by its id.", addr.Resource.Resource.Type, addr))}
	}
	var ds diag.Diagnostics
	given := t.identity.AsValueMap()
	attrs := map[string]cty.Value{}
	for name, a := range sch.Identity.Attributes {
		v, ok := given[name]
		if !ok || v.IsNull() {
			if a.Required {
				ds = ds.Append(diag.At(rng, "Invalid import identity argument",
					fmt.Sprintf("The identity of %s needs the attribute %q.", addr.Resource.Resource.Type, name)))
			}
			attrs[name] = cty.NullVal(a.Type)
			continue
		}
		cv, err := convert.Convert(v, a.Type)
		if err != nil {
			ds = ds.Append(diag.At(rng, "Invalid import identity argument",
				fmt.Sprintf("Inappropriate value for the identity attribute %q: %s.", name, err)))
			continue
		}
		attrs[name] = cv
	}
	for name := range given {
		if _, ok := sch.Identity.Attributes[name]; !ok {
			ds = ds.Append(diag.At(rng, "Invalid import identity argument",
				fmt.Sprintf("The identity of %s has no attribute %q.", addr.Resource.Resource.Type, name)))
		}
	}
	if ds.HasErrors() {
		return cty.NilVal, ds
	}
	return cty.ObjectVal(attrs), nil
}

// sameIdentity reports whether two import identities are the same (both
// absent, or equal).
func sameIdentity(a, b cty.Value) bool {
	if a == cty.NilVal || b == cty.NilVal {
		return a == cty.NilVal && b == cty.NilVal
	}
	return a.RawEquals(b)
}

// shownID is what progress lines show as the imported object's id: the
// import ID, or the identity's id attribute (else its first string
// attribute by name), as OpenTofu picks it.
func (t importTarget) shownID() string {
	if t.identity == cty.NilVal {
		return t.id
	}
	m := t.identity.AsValueMap()
	if v, ok := m["id"]; ok && v.Type() == cty.String && !v.IsNull() {
		return v.AsString()
	}
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if v := m[name]; v.Type() == cty.String && !v.IsNull() {
			return v.AsString()
		}
	}
	return ""
}
