package planner

import (
	"time"

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
	absAddr, cr, sch, ref, prov, exp := start.absAddr, start.cr, start.sch, start.ref, start.prov, start.exp
	// vals[i] is the value of instance exp.Keys[i], written by that
	// instance's work alone; NilVal leaves the instance out.
	vals := make([]cty.Value, len(exp.Keys))
	pending, deferred := p.dependsOnChanges(m, r)
	p.expandChecks(absAddr, exp.Keys)
	for i, k := range exp.Keys {
		addr := absAddr.Instance(k)
		pc, prov := ref.Config, prov
		if ref.KeyExpr != nil {
			var more diag.Diagnostics
			pc, prov, more = p.instanceProvider(ref, addr, exp.InstanceData(k))
			if w.note(more); prov == nil {
				continue
			}
		}
		d := dataInstance{r: r, cr: cr, sch: sch, prov: prov, pc: pc, addr: addr, inst: exp.InstanceData(k), pending: pending, deferred: deferred}
		w.add(addr, pc, func() diag.Diagnostics {
			v, ds := p.planDataInstance(d)
			vals[i] = v
			return ds
		})
	}
	return func() {
		byKey := map[addrs.InstanceKey]cty.Value{}
		for i, k := range exp.Keys {
			if vals[i] != cty.NilVal {
				byKey[k] = vals[i]
			}
		}
		p.mu.Lock()
		p.planned[absAddr] = exp.WholeValue(byKey)
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
	cfg, more := scope.EvalBlock(r.Config, sch.Block.DecoderSpec())
	more = more.Append(eval.EphemeralArguments(sch.Block, cfg, r.Config, r.DeclRange))
	ds = ds.Append(more)
	if more.HasErrors() {
		return cty.NilVal, ds
	}
	// What is read gets the configuration's sensitive marks back, and
	// the schema's. (Plugins drop marks; the built-in
	// terraform_remote_state keeps those of its defaults.)
	marked := cfg
	cfg, cfgMarks := cfg.UnmarkDeepWithPaths()
	remark := func(v cty.Value) cty.Value {
		if v == cty.NilVal || v.IsNull() {
			return v
		}
		return sch.Block.MarkSensitive(v.MarkWithPaths(cfgMarks))
	}
	ds = ds.Append(provider.Redacted(prov.ValidateDataResourceConfig(p.ctx, r.Addr.Type, cfg), marked).InBody(r.Config))
	read := &plan.ResourceInstanceChange{Addr: addr, ProviderConfig: pc, Action: plan.Read,
		Before: cty.NullVal(ty), Dependencies: p.rg.resourceDeps[d.cr]}
	if d.deferred || !cfg.IsWhollyKnown() {
		read.ReadCause, read.ReadAfter = plan.ReadBecauseConfigUnknown, addrs.AbsResourceInstance{}
		read.Reason = plan.ReasonReadConfigUnknown
		if d.deferred {
			read.ReadCause, read.ReadAfter = plan.ReadBecauseDependencyPending, d.pending
			if cfg.IsWhollyKnown() {
				read.Reason = plan.ReasonReadDependencyPending
			}
		}
		read.After = remark(plannedDataObject(sch.Block, cfg))
		p.addChange(read)
		return read.After, ds
	}
	readHooks, _ := p.opts.Hooks.(plan.DataReadHooks)
	if readHooks != nil {
		readHooks.PreRead(addr)
	}
	readStart := time.Now()
	meta, more := p.eval.ProviderMeta(p.ctx, p.providers, mi, pc.Provider, r.Addr.String())
	if ds = ds.Append(more); more.HasErrors() {
		return cty.NilVal, ds
	}
	resp := prov.ReadDataSource(provider.WithResourceInstance(p.ctx, addr), provider.ReadDataRequest{TypeName: r.Addr.Type, Config: marked, ProviderMeta: meta})
	resp.State = remark(resp.State)
	if readHooks != nil {
		readHooks.PostRead(addr, resp.State, time.Since(readStart), resp.Diagnostics.HasErrors())
	}
	readDiags := withAddr(provider.Redacted(resp.Diagnostics, marked).InBody(r.Config), addrs.ObjectAddr{Instance: addr})
	if r.Check != "" {
		read.Reason = plan.ReadBecauseCheckNested
		read.After = resp.State
		if readDiags.HasErrors() {
			read.After = remark(plannedDataObject(sch.Block, cfg))
			p.mu.Lock()
			p.checkFailed[checkInstance{module: mi.String(), name: r.Check}] = true
			p.mu.Unlock()
		}
		ds = ds.Append(AsWarnings(readDiags))
		p.addChange(read)
		if readDiags.HasErrors() {
			return read.After, ds
		}
	} else {
		ds = ds.Append(readDiags)
		if readDiags.HasErrors() {
			return cty.NilVal, ds
		}
	}
	selfScope := p.eval.Scope(mi, d.inst)
	selfScope.Self = resp.State
	for i, rule := range r.Postconditions {
		ds = ds.Append(eval.CheckRule(selfScope, rule, "Resource postcondition failed", "", p.ruleAt(checks.ResourceObject(addr), checks.Postcondition, i)))
	}
	obj, err := plan.NewStateObject(pc.Provider, r.Addr.Type, sch, resp.State)
	if err != nil {
		return resp.State, ds.Append(err)
	}
	p.mu.Lock()
	p.refreshed.SetObject(addrs.ObjectAddr{Instance: addr}, obj, pc)
	p.mu.Unlock()
	return resp.State, ds
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
