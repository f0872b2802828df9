package planner

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/rig-iac/rig/internal/instance"
	"github.com/rig-iac/rig/internal/plan"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// planResource adds to w the planning of the instances of resource r of
// module m in module instance mi, and of the objects recorded for it that
// the configuration no longer has (orphans, deposed objects). It returns
// what records the resource's planned value once w is done; nil when the
// resource cannot be planned (the problem noted in w).
func (p *planner) planResource(w *objectWork, m *config.Module, r *config.Resource, mi addrs.ModuleInstance) func() {
	start, ok := p.startResource(w, m, r, mi)
	if !ok {
		return nil
	}
	absAddr, cr, sch, exp := start.absAddr, start.cr, start.sch, start.exp
	p.expandChecks(absAddr, exp.Keys)
	if r.Managed != nil && p.opts.Mode != plan.DestroyMode {
		more := p.expandChildImports(cr, mi)
		if w.note(more); more.HasErrors() {
			return nil
		}
	}
	// vals[i] is the planned value of instance exp.Keys[i], written by
	// that instance's work alone.
	vals := make([]cty.Value, len(exp.Keys))
	inConfig := make(map[addrs.InstanceKey]bool, len(exp.Keys))
	for i, k := range exp.Keys {
		inConfig[k] = true
		addr := absAddr.Instance(k)
		if !p.sel.plansInstance(addr) {
			vals[i] = p.priorInstanceValue(addr, sch)
			continue
		}
		pc, iprov := start.instanceProvider(p, w, k)
		if iprov == nil {
			vals[i] = cty.UnknownVal(sch.Block.ImpliedType())
			continue
		}
		w.add(addr, pc, func() diag.Diagnostics {
			v, ds := p.planInstance(cr, r, sch, iprov, pc, addr, exp.InstanceData(k))
			vals[i] = v
			return ds
		})
	}
	p.mu.Lock()
	rs := p.prevRun.Resource(absAddr)
	p.mu.Unlock()

	// Instances in state that the expansion no longer has, and deposed objects.
	if rs != nil {
		for _, k := range rs.InstanceKeys() {
			addr := absAddr.Instance(k)
			inst := rs.Instances[k]
			if !p.sel.plansInstance(addr) {
				continue
			}
			pc := rs.InstanceProvider(k)
			if !inConfig[k] && inst.Current != nil {
				reason := orphanReason(exp, k)
				w.add(addr, pc, func() diag.Diagnostics {
					return p.planDelete(addr, addrs.NotDeposed, inst.Current, pc, sch, reason)
				})
			}
			for _, dk := range sortedDeposedKeys(inst) {
				w.add(addr, pc, func() diag.Diagnostics {
					return p.planDelete(addr, dk, inst.Deposed[dk], pc, sch, plan.ReasonNone)
				})
			}
		}
	}
	return func() {
		byKey := make(map[addrs.InstanceKey]cty.Value, len(vals))
		for i, k := range exp.Keys {
			byKey[k] = vals[i]
		}
		p.mu.Lock()
		p.planned[absAddr] = exp.WholeValue(byKey)
		p.mu.Unlock()
	}
}

func orphanReason(exp eval.Expansion, k addrs.InstanceKey) plan.ActionReason {
	switch {
	case exp.Mode == eval.Counted && k.IsInt():
		return plan.DeleteBecauseCountIndex
	case exp.Mode == eval.ForEach && k.IsString():
		return plan.DeleteBecauseEachKey
	case exp.Mode == eval.Enabled && k.IsNone():
		return plan.DeleteBecauseEnabledFalse
	}
	return plan.DeleteBecauseWrongRepetition
}

func sortedDeposedKeys(inst *state.Instance) []addrs.DeposedKey {
	keys := make([]addrs.DeposedKey, 0, len(inst.Deposed))
	for k := range inst.Deposed {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

// priorValue decodes (upgrading through the provider) and, unless refresh is
// skipped, refreshes a recorded object (instance.Refresh). It returns a null
// value if the object no longer exists, and records the refreshed object in
// p.refreshed. The object's resource identity comes back too (cty.NilVal
// when the type declares none).
func (p *planner) priorValue(prov provider.Interface, sch provider.Schema, addr addrs.ObjectAddr, obj *state.Object, pc addrs.AbsProviderConfig) (cty.Value, []byte, cty.Value, diag.Diagnostics) {
	return p.priorValueRefreshing(prov, sch, addr, obj, pc, !p.opts.SkipRefresh)
}

// priorValueRefreshing is priorValue, refreshing the object only if refresh is set.
func (p *planner) priorValueRefreshing(prov provider.Interface, sch provider.Schema, addr addrs.ObjectAddr, obj *state.Object, pc addrs.AbsProviderConfig, refresh bool) (cty.Value, []byte, cty.Value, diag.Diagnostics) {
	rf, ds := instance.Refresh(p.ctx, instance.RefreshRequest{
		Addr: addr, Object: obj, Schema: sch, Provider: prov, ProviderConfig: pc,
		Eval: p.eval, Providers: p.providers, SkipRefresh: !refresh, Hooks: p.refreshHooks(),
	})
	if refresh && !ds.HasErrors() {
		p.refresh.noteRefreshed(addr)
	}
	if !rf.Changed {
		return rf.Value, rf.Private, rf.Identity, ds
	}
	val, newVal := rf.Prior, rf.Value
	p.mu.Lock()
	defer p.mu.Unlock()
	if !instance.ValuesEqual(newVal, val) {
		paths := plan.RecordedPaths(obj, pc.Provider, addr.Instance.Resource.Resource.Type)
		p.recordDrift(addr, pc, plan.MarkRecorded(sch.Block, val, paths), plan.MarkRecorded(sch.Block, newVal, paths))
	}
	if newVal.IsNull() {
		p.refreshed.SetObject(addr, nil, pc)
		if r := addr.Instance.ContainingResource().Unkeyed(); p.opts.Dependencies == plan.ReducedDependencies && !p.refreshed.HasObjectsOf(r) {
			// Gone outside rig: what recorded it depends on what it did.
			p.refreshed.SpliceRemoved(r, obj.Dependencies)
		}
		return newVal, nil, rf.Identity, ds
	}
	refreshed, err := instance.RefreshedObject(obj, pc.Provider, addr.Instance.Resource.Resource.Type, sch, newVal, rf.Private, rf.Identity)
	if err != nil {
		return val, obj.Private, rf.Identity, ds.Append(diag.FromError(fmt.Errorf("%s: %w", addr, err)))
	}
	p.refreshed.SetObject(addr, refreshed, pc)
	return newVal, rf.Private, rf.Identity, ds
}

// lifecycleRules answers instance.Plan's questions about the rules that
// depend on the rest of the plan.
type lifecycleRules struct{ p *planner }

// ReplaceTriggered implements instance.Lifecycle.
func (l lifecycleRules) ReplaceTriggered(r *config.Resource, scope *lang.Scope, addr addrs.AbsResourceInstance) (*plan.Trigger, diag.Diagnostics) {
	return l.p.replaceTriggered(r, scope, addr)
}

// PreventDestroy implements instance.Lifecycle.
func (l lifecycleRules) PreventDestroy(r *config.Resource, addr addrs.AbsResourceInstance) diag.Diagnostics {
	return l.p.preventDestroy(r, addr)
}

// planInstance plans one configured instance (instance.Plan, from its
// current object upgraded and refreshed, or imported), records its change
// and returns its planned value.
func (p *planner) planInstance(cr addrs.ConfigResource, r *config.Resource, sch provider.Schema, prov provider.Interface, pc addrs.AbsProviderConfig, addr addrs.AbsResourceInstance, inst lang.InstanceData) (cty.Value, diag.Diagnostics) {
	return p.planInstanceScoped(cr, r, sch, prov, pc, addr, inst, true)
}

// planInstanceScoped is planInstance; with mayKeep set, a -refresh=changed
// plan may plan the object as recorded (see RefreshScope).
func (p *planner) planInstanceScoped(cr addrs.ConfigResource, r *config.Resource, sch provider.Schema, prov provider.Interface, pc addrs.AbsProviderConfig, addr addrs.AbsResourceInstance, inst lang.InstanceData, mayKeep bool) (cty.Value, diag.Diagnostics) {
	var ds diag.Diagnostics
	ty := sch.Block.ImpliedType()
	oaddr := addrs.ObjectAddr{Instance: addr}

	p.mu.Lock()
	var obj *state.Object
	if si := p.prevRun.Instance(addr); si != nil {
		obj = si.Current
	}
	t, importing := p.imports[addr]
	p.mu.Unlock()
	// Providers see values without marks; the change shows them with the
	// marks of the sensitive values the state records and the
	// configuration has.
	req := instance.PlanRequest{
		Addr: addr, Resource: r, Schema: sch, Provider: prov, ProviderConfig: pc,
		Eval: p.eval, Providers: p.providers, Instance: inst, Checks: p.checks,
		Prior:     cty.NullVal(ty),
		Tainted:   obj != nil && obj.Status == state.Tainted,
		Replace:   p.replace[addr],
		Lifecycle: lifecycleRules{p},
	}
	var imported *plan.Importing
	if importing && obj == nil {
		v, priv, id, more := p.importObject(prov, sch, pc, addr, t)
		ds = ds.Append(more)
		if ds.HasErrors() {
			return cty.UnknownVal(ty), ds
		}
		req.Prior, req.PriorPrivate, req.PriorIdentity, imported = v, priv, plan.IdentityOf(sch, id), &plan.Importing{ID: t.id, Identity: t.identity}
	}
	var keep plan.Refreshed
	kept := false
	if obj != nil && mayKeep && !p.opts.SkipRefresh {
		if keep, kept = p.refresh.skippable(oaddr, obj, p.rg.dependencies()[cr]); !kept {
			p.refresh.noteCause(keep)
		}
	}
	if obj != nil {
		v, priv, id, more := p.priorValueRefreshing(prov, sch, oaddr, obj, pc, !p.opts.SkipRefresh && !kept)
		ds = ds.Append(more)
		if ds.HasErrors() {
			return cty.UnknownVal(ty), ds
		}
		req.Prior, req.PriorPrivate, req.PriorIdentity = v, priv, plan.IdentityOf(sch, id)
		req.PriorSensitive = plan.RecordedPaths(obj, pc.Provider, r.Addr.Type)
	}
	inh, cbd := p.cbd[cr]
	req.CreateBeforeDestroy = cbd
	change, more := instance.Plan(p.ctx, req)
	if kept {
		if change == nil || change.Action != plan.NoOp {
			// The plan would change the object (or failed): plan it again
			// against what its API says it is now.
			p.refresh.noteCause(plan.Refreshed{Addr: oaddr, Cause: plan.RefreshWouldChange, LastRefreshed: keep.LastRefreshed})
			return p.planInstanceScoped(cr, r, sch, prov, pc, addr, inst, false)
		}
		p.refresh.noteNotRefreshed(oaddr, keep.LastRefreshed)
	}
	ds = ds.Append(more)
	if change == nil {
		return cty.UnknownVal(ty), ds
	}
	if !change.Action.Deletes() {
		ds = ds.Append(p.checkPreventDestroyValue(r, addr))
	}
	change.Dependencies = p.rg.dependencies()[cr]
	change.Importing = imported
	change.PreventDestroy = p.protectionAt(r, addr, obj)
	if cbd && inh.from != cr {
		change.CBDInheritedFrom = recordedAddr(inh.from)
		change.CBDVia = recordedAddr(inh.via)
	}
	p.addChange(change)
	ds = ds.Append(p.planActionTriggers(r, change, inst))
	return change.After, ds
}

// recordUnchanged records, in the refreshed state, the dependencies,
// create_before_destroy (own or inherited) and skip_destroy of every object
// planned as a no-op: apply has no operation for them that would record these, and a
// later delete of such an object is ordered by them. OpenTofu does the same.
func (p *planner) recordUnchanged() {
	for _, c := range p.changes {
		addr := c.ObjectAddr()
		cur := p.refreshed.Object(addr)
		if c.Action != plan.NoOp || cur == nil || cur.CreateBeforeDestroy == c.CreateBeforeDestroy && cur.SkipDestroy == c.SkipDestroy &&
			c.PreventDestroy == cur.PreventDestroy && sameResources(cur.Dependencies, c.Dependencies) {
			continue
		}
		obj := *cur
		obj.Dependencies = c.Dependencies
		obj.CreateBeforeDestroy = c.CreateBeforeDestroy
		obj.SkipDestroy = c.SkipDestroy
		obj.PreventDestroy = c.PreventDestroy
		p.refreshed.SetObject(addr, &obj, c.ProviderConfig)
	}
}

// sameResources reports whether a and b hold the same resources, in any order.
func sameResources(a, b []addrs.AbsResource) bool {
	if len(a) != len(b) {
		return false
	}
	if slices.Equal(a, b) {
		// Lists are normally recorded sorted: no set is needed.
		return true
	}
	in := make(map[addrs.AbsResource]bool, len(a))
	for _, r := range a {
		in[r] = true
	}
	for _, r := range b {
		if !in[r] {
			return false
		}
	}
	return true
}

// recordedAddr is r as recorded dependencies and create_before_destroy
// sources name it: an AbsResource whose module path has no instance keys.
func recordedAddr(r addrs.ConfigResource) addrs.AbsResource {
	return addrs.AbsResource{Module: addrs.ModuleInstance(r.Module), Resource: r.Resource}
}

// planDelete plans the deletion of a recorded object whose configuration is gone
// (or of a deposed object), ordered by the dependencies recorded in state.
func (p *planner) planDelete(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, obj *state.Object, pc addrs.AbsProviderConfig, sch provider.Schema, reason plan.ActionReason) diag.Diagnostics {
	var ds diag.Diagnostics
	oaddr := addrs.ObjectAddr{Instance: addr, Deposed: dk}
	if sch.Block == nil {
		s, more := p.providers.ResourceTypeSchema(p.ctx, pc.Provider, addr.Resource.Resource.Type)
		ds = ds.Append(more)
		if ds.HasErrors() {
			return ds
		}
		sch = s
	}
	if ds = ds.Append(checkProviderInstance(p.eval, addr, dk, pc)); ds.HasErrors() {
		return ds
	}
	prov, more := p.configuredProvider(pc)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	prior, priv, priorIdentity, more := p.priorValue(prov, sch, oaddr, obj, pc)
	ds = ds.Append(more)
	prior = plan.MarkRecorded(sch.Block, prior, plan.RecordedPaths(obj, pc.Provider, addr.Resource.Resource.Type))
	if ds.HasErrors() {
		return ds
	}
	if prior.IsNull() {
		// Already gone: refreshing removed it from state, nothing to do.
		return ds
	}
	r := p.cfg.ConfigResource(addr.ContainingResource().InConfig())
	action := plan.Delete
	var refusedBy string
	if forget, why := p.forgetInstead(r, addr, dk, obj); forget {
		action = plan.Forget
		if why != plan.ReasonNone {
			reason = why
		}
		if p.opts.Mode != plan.DestroyMode {
			p.noteForgotten(addr)
		}
	} else if dk == addrs.NotDeposed {
		// The state's record refuses the deletion first: the plan goes on
		// and is shown with it marked.
		var refusal *diag.Diagnostic
		if refusedBy, refusal = p.recordedProtection(addr, obj, r != nil); refusal != nil {
			p.mu.Lock()
			p.refused = append(p.refused, *refusal)
			p.mu.Unlock()
		} else {
			ds = ds.Append(p.preventDestroy(r, addr))
		}
	}
	change := &plan.ResourceInstanceChange{
		Addr: addr, Deposed: dk, ProviderConfig: pc, Action: action, Reason: reason, RefusedBy: refusedBy,
		Before: prior, After: cty.NullVal(sch.Block.ImpliedType()), PriorPrivate: priv,
		CreateBeforeDestroy: action == plan.Delete && (obj.CreateBeforeDestroy || dk != addrs.NotDeposed),
		BeforeIdentity:      plan.IdentityOf(sch, priorIdentity), AfterIdentity: plan.NullIdentity(sch),
		Dependencies: obj.Dependencies, SchemaVersion: obj.SchemaVersion,
	}
	p.storeBefore(change, obj, sch, prior)
	p.addChange(change)
	return ds.Append(p.planActionTriggers(r, change, KeyInstanceData(addr.Resource.Key)))
}

// planOrphans plans the deletion of resources that are in state but no longer in configuration.
func (p *planner) planOrphans() diag.Diagnostics {
	w := p.newWork()
	for _, oa := range p.prevRun.Objects() {
		ra := oa.Instance.ContainingResource()
		if p.handled[ra] || ra.Resource.Mode != addrs.Managed || !p.sel.plansInstance(oa.Instance) {
			continue
		}
		rs := p.prevRun.Resource(ra)
		obj := p.prevRun.Object(oa)
		reason := plan.DeleteBecauseNoResourceConfig
		switch {
		case oa.Deposed != addrs.NotDeposed:
			reason = plan.ReasonNone
		case p.cfg.ConfigResource(ra.InConfig()) != nil && !p.eval.ModuleInstanceExists(ra.Module):
			// Only a resource still configured is deleted for its module
			// instance; without configuration (a module call removed, or
			// named by a removed block) the reason is the missing
			// configuration, as in OpenTofu.
			reason = plan.DeleteBecauseNoModule
		}
		pc := rs.InstanceProvider(oa.Instance.Resource.Key)
		w.add(oa.Instance, pc, func() diag.Diagnostics {
			return p.planDelete(oa.Instance, oa.Deposed, obj, pc, provider.Schema{}, reason)
		})
	}
	ds := w.wait()
	// Data sources no longer in configuration are simply forgotten.
	for ra := range p.prevRun.Resources {
		if ra.Resource.Mode == addrs.Data && !p.handled[ra] && (p.sel == nil || p.cfg.ConfigResource(ra.InConfig()) == nil) {
			delete(p.refreshed.Resources, ra)
		}
	}
	return ds
}

// planDestroy plans the deletion of every recorded object (with -target or
// -exclude, of those destroySelection selects).
func (p *planner) planDestroy() diag.Diagnostics {
	selected := destroySelection(p.prevRun, p.opts.Targets, p.opts.Excludes)
	p.expectRefreshes(func(oa addrs.ObjectAddr) bool { return selected == nil || selected[oa] })
	w := p.newWork()
	for _, oa := range p.prevRun.Objects() {
		if selected != nil && !selected[oa] {
			continue
		}
		ra := oa.Instance.ContainingResource()
		rs := p.prevRun.Resource(ra)
		pc := rs.InstanceProvider(oa.Instance.Resource.Key)
		if ra.Resource.Mode == addrs.Data {
			// A destroy leaves no data sources in state, as in OpenTofu.
			// (No work runs before w.wait.)
			p.refreshed.SetObject(oa, nil, pc)
			continue
		}
		sch := p.schemas[ra.InConfig()]
		obj := p.prevRun.Object(oa)
		w.add(oa.Instance, pc, func() diag.Diagnostics {
			return p.planDelete(oa.Instance, oa.Deposed, obj, pc, sch, plan.ReasonNone)
		})
	}
	ds := w.wait()
	p.outputs = map[string]*plan.OutputChange{}
	if selected != nil {
		// A partial destroy leaves the outputs as they are.
		return ds
	}
	for name, o := range p.prevRun.Outputs {
		p.outputs[name] = &plan.OutputChange{Action: plan.Delete, Before: o.Value, After: cty.NullVal(o.Value.Type()), Sensitive: o.Sensitive}
	}
	return ds
}

// planOutputs evaluates every root output against the planned values;
// when ready is not nil, only those it accepts (in a plan that stopped
// with errors, those whose dependencies were all planned).
func (p *planner) planOutputs(ready func(name string) bool) diag.Diagnostics {
	var ds diag.Diagnostics
	p.outputs = map[string]*plan.OutputChange{}
	for _, name := range slices.Sorted(maps.Keys(p.cfg.Outputs)) {
		o := p.cfg.Outputs[name]
		if o.Expr == nil || !p.sel.visits(node{kind: outputNode, name: name}) {
			// Left out of a targeted plan: it keeps its recorded value.
			continue
		}
		if ready != nil && !ready(name) {
			continue
		}
		scope := p.eval.Scope(addrs.RootModule, lang.InstanceData{})
		var failed bool
		for i, rule := range o.Preconditions {
			more := eval.CheckRule(scope, rule, "Module output value precondition failed", "", p.ruleAt(checks.NamedObject(checks.OutputKind, addrs.RootModule, name), checks.Precondition, i))
			failed = failed || more.HasErrors()
			ds = ds.Append(more)
		}
		if failed {
			// As in OpenTofu, an output whose precondition failed is not
			// evaluated and has no planned change.
			continue
		}
		val, more := eval.EvalOutput(scope, o)
		if !more.HasErrors() {
			var eds diag.Diagnostics
			val, eds = eval.EphemeralOutput(o, true, val)
			more = more.Append(eds)
		}
		ds = ds.Append(more)
		if more.HasErrors() {
			// As in OpenTofu, an output that failed has no planned change.
			continue
		}
		if !o.Sensitive && val.ContainsMarked() {
			ds = ds.Append(sensitiveRootOutput(o))
		}
		before := cty.NullVal(cty.DynamicPseudoType)
		prior, had := p.prevRun.Outputs[name]
		if had {
			before = prior.Value
		}
		oc := &plan.OutputChange{Before: before, After: val, Sensitive: o.Sensitive}
		switch {
		case val.IsNull() && before.IsNull():
			// Null outputs are not recorded, so nothing changes (OpenTofu ignores
			// sensitivity here too).
			oc.Action = plan.NoOp
		case !had:
			oc.Action = plan.Create
		case instance.ValuesEqual(val, before) && prior.Sensitive == o.Sensitive:
			oc.Action = plan.NoOp
		default:
			oc.Action = plan.Update
		}
		p.outputs[name] = oc
	}
	for name, o := range p.prevRun.Outputs {
		if _, ok := p.cfg.Outputs[name]; !ok && len(p.opts.Targets) == 0 && ready == nil {
			p.outputs[name] = &plan.OutputChange{Action: plan.Delete, Before: o.Value, After: cty.NullVal(o.Value.Type()), Sensitive: o.Sensitive}
		}
	}
	return ds
}

// resourceStart is what planning the instances of a resource in one module
// instance starts from.
type resourceStart struct {
	absAddr addrs.AbsResource
	cr      addrs.ConfigResource
	sch     provider.Schema
	ref     ProviderRef
	// prov is the resource's configured provider; nil when its provider
	// configuration depends on the instance (ref.KeyExpr).
	prov provider.Interface
	exp  eval.Expansion
}

// startResource marks resource r of module instance mi handled, resolves
// its provider and expands its instances; false, with the problems noted
// in w, when it cannot be planned. Managed, data and ephemeral resources
// all start so.
func (p *planner) startResource(w *objectWork, m *config.Module, r *config.Resource, mi addrs.ModuleInstance) (resourceStart, bool) {
	var ds diag.Diagnostics
	st := resourceStart{absAddr: r.Addr.Absolute(mi), cr: configAddr(m, r), ref: ResolveProvider(m, r)}
	p.mu.Lock()
	p.handled[st.absAddr] = true
	st.sch = p.schemas[st.cr]
	p.mu.Unlock()
	if st.ref.KeyExpr == nil {
		var more diag.Diagnostics
		st.prov, more = p.configuredProvider(st.ref.Config)
		if ds = ds.Append(more); ds.HasErrors() {
			w.note(ds)
			return st, false
		}
	}
	exp, more := eval.Expand(p.eval.Scope(mi, lang.InstanceData{}), r)
	ds = ds.Append(more)
	w.note(ds)
	if ds.HasErrors() {
		return st, false
	}
	st.exp = exp
	return st, true
}

// wholeValue is the value of the resource st started, from vals[i], the
// value of instance st.exp.Keys[i]; cty.NilVal leaves an instance out.
func (st resourceStart) wholeValue(vals []cty.Value) cty.Value {
	byKey := make(map[addrs.InstanceKey]cty.Value, len(vals))
	for i, k := range st.exp.Keys {
		if vals[i] != cty.NilVal {
			byKey[k] = vals[i]
		}
	}
	return st.exp.WholeValue(byKey)
}

// instanceProvider returns the provider configuration of instance k of the
// resource st started and its configured provider: the resource's own,
// unless its provider configuration depends on the instance (a provider
// with for_each); a nil provider, with the problem noted in w, when the
// instance has none.
func (st resourceStart) instanceProvider(p *planner, w *objectWork, k addrs.InstanceKey) (addrs.AbsProviderConfig, provider.Interface) {
	if st.ref.KeyExpr == nil {
		return st.ref.Config, st.prov
	}
	pc, prov, ds := p.instanceProvider(st.ref, st.absAddr.Instance(k), st.exp.InstanceData(k))
	w.note(ds)
	return pc, prov
}
