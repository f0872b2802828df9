package planner

import (
	"github.com/rig-iac/rig/internal/instance"
	"github.com/rig-iac/rig/internal/plan"

	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// planDataResource reads a data source during planning when its
// configuration is wholly known; otherwise its value stays unknown and a
// Read change defers the read to apply. Its preconditions are checked
// before the read and its postconditions after it, with self the object
// read; a failure is an error.
//
// A check block's scoped data source is read again during apply (a Read
// change either way), and its problems are warnings: a failed read leaves
// its value unknown and the check's assertions unevaluated.
func (p *planner) planDataResource(w *objectWork, m *config.Module, r *config.Resource, mi addrs.ModuleInstance) func() {
	start, ok := p.startResource(w, m, r, mi)
	if !ok {
		return nil
	}
	absAddr, cr, sch, exp := start.absAddr, start.cr, start.sch, start.exp
	// vals[i] is the value of instance exp.Keys[i], written by that
	// instance's work alone; NilVal leaves the instance out.
	vals := make([]cty.Value, len(exp.Keys))
	pending, deferred := p.dependsOnChanges(m, r)
	p.expandChecks(absAddr, exp.Keys)
	for i, k := range exp.Keys {
		addr := absAddr.Instance(k)
		pc, prov := start.instanceProvider(p, w, k)
		if prov == nil {
			continue
		}
		d := dataInstance{r: r, cr: cr, sch: sch, prov: prov, pc: pc, addr: addr, inst: exp.InstanceData(k), pending: pending, deferred: deferred}
		w.add(addr, pc, func() diag.Diagnostics {
			v, ds := p.planDataInstance(d)
			vals[i] = v
			return ds
		})
	}
	return func() {
		whole := start.wholeValue(vals)
		p.mu.Lock()
		p.planned[absAddr] = whole
		// Instances the configuration no longer has (count lowered, a key
		// gone from for_each, enabled false) leave the state, as in OpenTofu.
		if rs := p.refreshed.Resource(absAddr); rs != nil {
			for _, k := range rs.InstanceKeys() {
				if !exp.Has(k) {
					p.refreshed.SetObject(addrs.ObjectAddr{Instance: absAddr.Instance(k)}, nil, rs.InstanceProvider(k))
				}
			}
		}
		p.mu.Unlock()
	}
}

// dataInstance is one instance of a data source to plan.
type dataInstance struct {
	r        *config.Resource
	cr       addrs.ConfigResource
	sch      provider.Schema
	prov     provider.Interface
	pc       addrs.AbsProviderConfig
	addr     addrs.AbsResourceInstance
	inst     lang.InstanceData
	pending  addrs.AbsResourceInstance
	deferred bool
}

// planDataInstance reads one instance of a data source, or plans its read
// during apply, and returns its value (NilVal when it has none).
func (p *planner) planDataInstance(d dataInstance) (cty.Value, diag.Diagnostics) {
	var ds diag.Diagnostics
	r, sch, prov, pc, addr := d.r, d.sch, d.prov, d.pc, d.addr
	ty := sch.Block.ImpliedType()
	mi := addr.Module
	scope := p.eval.Scope(mi, d.inst)
	for i, rule := range r.Preconditions {
		ds = ds.Append(eval.CheckRule(scope, rule, "Resource precondition failed", "", p.ruleAt(checks.ResourceObject(addr), checks.Precondition, i)))
	}
	if ds.HasErrors() {
		return cty.NilVal, ds
	}
	cfg, more := instance.EvalConfig(scope, r, sch, pc)
	ds = ds.Append(more)
	if more.HasErrors() {
		return cty.NilVal, ds
	}
	ds = ds.Append(diag.SortBySource(provider.Redacted(prov.ValidateDataResourceConfig(p.ctx, r.Addr.Type, cfg.Value), cfg.Marked).InBody(r.Config)))
	read := &plan.ResourceInstanceChange{Addr: addr, ProviderConfig: pc, Action: plan.Read,
		Before: cty.NullVal(ty), Dependencies: p.rg.dependencies()[d.cr]}
	// A read during apply: the configured values, with the configuration's
	// sensitive marks and the schema's, the rest unknown.
	deferredValue := func() cty.Value {
		return sch.Block.MarkSensitive(plannedDataObject(sch.Block, cfg.Value).MarkWithPaths(cfg.Marks))
	}
	if d.deferred || !cfg.Value.IsWhollyKnown() {
		read.ReadCause, read.ReadAfter = plan.ReadBecauseConfigUnknown, addrs.AbsResourceInstance{}
		read.Reason = plan.ReasonReadConfigUnknown
		if d.deferred {
			read.ReadCause, read.ReadAfter = plan.ReadBecauseDependencyPending, d.pending
			if cfg.Value.IsWhollyKnown() {
				read.Reason = plan.ReasonReadDependencyPending
			}
		}
		read.After = deferredValue()
		p.addChange(read)
		return read.After, ds
	}
	meta, more := p.eval.ProviderMeta(p.ctx, p.providers, mi, pc.Provider, r.Addr.String())
	if ds = ds.Append(more); more.HasErrors() {
		return cty.NilVal, ds
	}
	readHooks, _ := p.opts.Hooks.(plan.DataReadHooks)
	got, more := instance.ReadData(p.ctx, instance.ReadRequest{Addr: addr, Resource: r, Schema: sch, Provider: prov, Config: cfg, Meta: meta, Hooks: readHooks})
	ds = ds.Append(more)
	if r.Check != "" {
		read.Reason = plan.ReadBecauseCheckNested
		read.After = got.Value
		if got.CheckFailed {
			read.After = deferredValue()
			p.mu.Lock()
			p.checkFailed[checkInstance{module: mi.String(), name: r.Check}] = true
			p.mu.Unlock()
		}
		p.addChange(read)
		if got.CheckFailed {
			return read.After, ds
		}
	} else if more.HasErrors() {
		return cty.NilVal, ds
	}
	value := got.Value
	selfScope := p.eval.Scope(mi, d.inst)
	selfScope.Self = value
	for i, rule := range r.Postconditions {
		ds = ds.Append(eval.CheckRule(selfScope, rule, "Resource postcondition failed", "", p.ruleAt(checks.ResourceObject(addr), checks.Postcondition, i)))
	}
	obj, err := plan.NewStateObject(pc.Provider, r.Addr.Type, sch, value)
	if err != nil {
		return value, ds.Append(diag.FromError(err))
	}
	p.mu.Lock()
	p.refreshed.SetObject(addrs.ObjectAddr{Instance: addr}, obj, pc)
	p.mu.Unlock()
	return value, ds
}

// dependsOnChanges reports whether a data source of module m refers to (or
// names in depends_on) a managed resource with a planned change other than
// a no-op, or sits in a module whose call (or an ancestor's) has
// depends_on naming one. OpenTofu then reads it during apply, after that
// change, even when its configuration is known (forcePlanReadData:
// references to managed resources count as depends_on for data sources).
func (p *planner) dependsOnChanges(m *config.Module, r *config.Resource) (addrs.AbsResourceInstance, bool) {
	refs, _ := resourceReferences(m, r, func(m *config.Module, r *config.Resource) (*provider.Block, bool) {
		s, ok := p.schemas[configAddr(m, r)]
		return s.Block, ok
	})
	managed := map[addrs.ConfigResource]bool{}
	var modules []addrs.Module
	collect := func(in *config.Module, refs []*lang.Reference, dependsOn bool) {
		for _, ref := range refs {
			switch {
			case ref.Kind == lang.ResourceRef && ref.Resource.Mode == addrs.Managed:
				managed[addrs.ConfigResource{Module: in.Path, Resource: ref.Resource}] = true
			case ref.Kind == lang.ModuleCallOutput && dependsOn:
				modules = append(modules, in.Path.Child(ref.Name))
			}
		}
	}
	collect(m, refs, false)
	for cur := m; cur.Parent != nil; cur = cur.Parent {
		_, name := cur.Path.Parent()
		var ds diag.Diagnostics
		collect(cur.Parent, traversalRefs(&ds, cur.Parent.ModuleCalls[name].DependsOn), true)
	}
	if len(managed) == 0 && len(modules) == 0 {
		return addrs.AbsResourceInstance{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// The first pending change in address order names the reason.
	var first *plan.ResourceInstanceChange
	for _, c := range p.changes {
		if c.Action == plan.NoOp || c.Addr.Resource.Resource.Mode != addrs.Managed {
			continue
		}
		cr := c.Addr.ContainingResource().InConfig()
		hit := managed[cr]
		for _, mod := range modules {
			if cr.Module == mod || strings.HasPrefix(string(cr.Module), string(mod)+".") {
				hit = true
			}
		}
		if hit && (first == nil || c.Addr.Less(first.Addr)) {
			first = c
		}
	}
	if first == nil {
		return addrs.AbsResourceInstance{}, false
	}
	return first.Addr, true
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
