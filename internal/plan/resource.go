package plan

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/marks"
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
	var ds diag.Diagnostics
	absAddr := r.Addr.Absolute(mi)
	cr := configAddr(m, r)
	p.mu.Lock()
	p.handled[absAddr] = true
	sch := p.schemas[cr]
	p.mu.Unlock()
	ref := ResolveProvider(m, r)
	var prov provider.Interface
	if ref.KeyExpr == nil {
		var more diag.Diagnostics
		prov, more = p.configuredProvider(ref.Config)
		ds = ds.Append(more)
		if ds.HasErrors() {
			w.note(ds)
			return nil
		}
	}
	exp, more := eval.Expand(p.eval.Scope(mi, lang.InstanceData{}), r)
	ds = ds.Append(more)
	w.note(ds)
	if ds.HasErrors() {
		return nil
	}
	p.expandChecks(absAddr, exp.Keys)
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
		pc, iprov := ref.Config, prov
		if ref.KeyExpr != nil {
			var more diag.Diagnostics
			pc, iprov, more = p.instanceProvider(ref, addr, exp.InstanceData(k))
			if w.note(more); iprov == nil {
				vals[i] = cty.UnknownVal(sch.Block.ImpliedType())
				continue
			}
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
					return p.planDelete(addr, dk, inst.Deposed[dk], pc, sch, ReasonNone)
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

func orphanReason(exp eval.Expansion, k addrs.InstanceKey) ActionReason {
	switch {
	case exp.Mode == eval.Counted && k.IsInt():
		return DeleteBecauseCountIndex
	case exp.Mode == eval.ForEach && k.IsString():
		return DeleteBecauseEachKey
	case exp.Mode == eval.Enabled && k.IsNone():
		return DeleteBecauseEnabledFalse
	}
	return DeleteBecauseWrongRepetition
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
// skipped, refreshes a recorded object. It returns a null value if the
// object no longer exists, and records the refreshed object in p.refreshed.
func (p *planner) priorValue(prov provider.Interface, sch provider.Schema, addr addrs.ObjectAddr, obj *state.Object, pc addrs.AbsProviderConfig) (cty.Value, []byte, diag.Diagnostics) {
	ty := sch.Block.ImpliedType()
	up := prov.UpgradeResourceState(p.ctx, provider.UpgradeRequest{TypeName: addr.Instance.Resource.Resource.Type, Version: int64(obj.SchemaVersion), RawStateJSON: obj.AttrsJSON})
	ds := withAddr(up.Diagnostics, addr)
	if ds.HasErrors() {
		return cty.NullVal(ty), nil, ds
	}
	val := up.UpgradedState
	private := obj.Private
	if p.opts.SkipRefresh {
		return val, private, ds
	}
	meta, more := p.eval.ProviderMeta(p.ctx, p.providers, addr.Instance.Module, pc.Provider, addr.Instance.Resource.Resource.String())
	if ds = ds.Append(more); more.HasErrors() {
		return val, private, ds
	}
	p.refreshHooks().PreRefresh(addr, val)
	read := prov.ReadResource(provider.WithResourceInstance(p.ctx, addr.Instance), provider.ReadRequest{TypeName: addr.Instance.Resource.Resource.Type, PriorState: val, Private: private, ProviderMeta: meta})
	if !read.Diagnostics.HasErrors() {
		p.refreshHooks().PostRefresh(addr, read.NewState)
	}
	ds = ds.Append(withAddr(provider.Redacted(read.Diagnostics, MarkRecorded(sch.Block, val, RecordedPaths(obj, pc.Provider, addr.Instance.Resource.Resource.Type))), addr))
	if read.Diagnostics.HasErrors() {
		return val, private, ds
	}
	newVal := read.NewState
	if newVal == cty.NilVal {
		newVal = cty.NullVal(ty)
	}
	if newVal.RawEquals(val) && obj.SchemaVersion == uint64(sch.Version) {
		return val, read.Private, ds
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !valuesEqual(newVal, val) {
		paths := RecordedPaths(obj, pc.Provider, addr.Instance.Resource.Resource.Type)
		p.recordDrift(addr, pc, MarkRecorded(sch.Block, val, paths), MarkRecorded(sch.Block, newVal, paths))
	}
	if newVal.IsNull() {
		p.refreshed.SetObject(addr, nil, pc)
		if r := addr.Instance.ContainingResource().Unkeyed(); p.opts.Dependencies == ReducedDependencies && !p.refreshed.HasObjectsOf(r) {
			// Gone outside rig: what recorded it depends on what it did.
			p.refreshed.SpliceRemoved(r, obj.Dependencies)
		}
		return newVal, nil, ds
	}
	nobj, err := state.NewObject(newVal, ty)
	if err != nil {
		return val, private, ds.Append(fmt.Errorf("%s: %w", addr, err))
	}
	refreshed := *obj
	refreshed.AttrsJSON = nobj.AttrsJSON
	refreshed.SchemaVersion = uint64(sch.Version)
	refreshed.Private = read.Private
	// The schema's sensitive attributes, and those the configuration marked.
	if sens, err := state.SensitivePathsJSON(marks.Union(sch.Block.SensitivePaths(newVal), sensitivePaths(obj))); err == nil {
		refreshed.SensitiveAttributes = sens
	}
	p.refreshed.SetObject(addr, &refreshed, pc)
	return newVal, read.Private, ds
}

func withAddr(ds diag.Diagnostics, addr addrs.ObjectAddr) diag.Diagnostics {
	for i := range ds {
		if ds[i].Address == "" {
			ds[i].Address = addr.String()
		}
	}
	return ds
}

// planInstance plans one configured instance and returns its planned value.
func (p *planner) planInstance(cr addrs.ConfigResource, r *config.Resource, sch provider.Schema, prov provider.Interface, pc addrs.AbsProviderConfig, addr addrs.AbsResourceInstance, inst lang.InstanceData) (cty.Value, diag.Diagnostics) {
	var ds diag.Diagnostics
	ty := sch.Block.ImpliedType()
	typeName := r.Addr.Type
	oaddr := addrs.ObjectAddr{Instance: addr}

	p.mu.Lock()
	var obj *state.Object
	if si := p.prevRun.Instance(addr); si != nil {
		obj = si.Current
	}
	p.mu.Unlock()
	// Providers see values without marks; the change shows them with the
	// marks of the sensitive values the state records and the
	// configuration has.
	priorVal := cty.NullVal(ty)
	var priorPrivate []byte
	var priorSensitive []cty.Path
	var importing *Importing
	if t, ok := p.imports[addr]; ok && obj == nil {
		v, priv, more := p.importObject(prov, sch, pc, addr, t)
		ds = ds.Append(more)
		if ds.HasErrors() {
			return cty.UnknownVal(ty), ds
		}
		priorVal, priorPrivate, importing = v, priv, &Importing{ID: t.id}
	}
	if obj != nil {
		v, priv, more := p.priorValue(prov, sch, oaddr, obj, pc)
		ds = ds.Append(more)
		if ds.HasErrors() {
			return cty.UnknownVal(ty), ds
		}
		priorVal, priorPrivate = v, priv
		priorSensitive = RecordedPaths(obj, pc.Provider, typeName)
	}
	scope := p.eval.Scope(addr.Module, inst)
	for i, rule := range r.Preconditions {
		ds = ds.Append(eval.CheckRule(scope, rule, "Resource precondition failed", "", p.ruleAt(checks.ResourceObject(addr), checks.Precondition, i)))
	}
	configVal, more := scope.EvalBlock(r.Config, sch.Block.DecoderSpec())
	ds = ds.Append(more)
	if ds.HasErrors() {
		return cty.UnknownVal(ty), ds
	}
	markedConfig := configVal
	configVal, configMarks := configVal.UnmarkDeepWithPaths()
	configMarks = WithEchoedMarks(pc.Provider, typeName, configMarks)
	ds = ds.Append(withAddr(provider.Redacted(prov.ValidateResourceConfig(p.ctx, typeName, configVal), markedConfig).InBody(r.Config), oaddr))
	if ds.HasErrors() {
		return cty.UnknownVal(ty), ds
	}
	// ignore_changes applies to updates: a tainted object is replaced, and a
	// replacement's new object is planned from the configuration as written.
	origConfig := configVal
	tainted := obj != nil && obj.Status == state.Tainted
	if !priorVal.IsNull() && !tainted && r.Managed != nil {
		configVal = ApplyIgnoreChanges(r.Managed, priorVal, configVal)
	}
	proposed := provider.ProposedNew(sch.Block, priorVal, configVal)
	meta, more := p.eval.ProviderMeta(p.ctx, p.providers, addr.Module, pc.Provider, r.Addr.String())
	if ds = ds.Append(more); ds.HasErrors() {
		return cty.UnknownVal(ty), ds
	}
	resp := prov.PlanResourceChange(provider.WithResourceInstance(p.ctx, addr), provider.PlanRequest{TypeName: typeName, PriorState: priorVal, ProposedNewState: proposed, Config: configVal, PriorPrivate: priorPrivate, ProviderMeta: meta})
	ds = ds.Append(withAddr(provider.Redacted(resp.Diagnostics, markedConfig, MarkRecorded(sch.Block, priorVal, priorSensitive)).InBody(r.Config), oaddr))
	if ds.HasErrors() {
		return cty.UnknownVal(ty), ds
	}
	ds = ds.Append(CheckPlanned(sch.Block, priorVal, configVal.MarkWithPaths(configMarks), resp, pc, addr))
	if ds.HasErrors() {
		return cty.UnknownVal(ty), ds
	}
	planned := resp.PlannedState
	change := &ResourceInstanceChange{
		Addr: addr, ProviderConfig: pc, Before: priorVal, After: planned,
		PriorPrivate: priorPrivate, PlannedPrivate: resp.PlannedPrivate,
		Dependencies:   p.rg.resourceDeps[cr],
		SchemaVersion:  uint64(sch.Version),
		Importing:      importing,
		SkipDestroy:    r.Managed.SkipsDestroy(),
		PreventDestroy: p.protectionAt(r, addr, obj),
	}
	if inh, ok := p.cbd[cr]; ok {
		change.CreateBeforeDestroy = true
		if inh.from != cr {
			change.CBDInheritedFrom = recordedAddr(inh.from)
			change.CBDVia = recordedAddr(inh.via)
		}
	}

	// The action and its reason, in OpenTofu's order: replace_triggered_by
	// names the reason whatever else forces the replacement; the paths the
	// provider says force replacement are recorded whatever the reason.
	var trigger *Trigger
	if !priorVal.IsNull() {
		t, more := p.replaceTriggered(r, scope, addr)
		ds = ds.Append(more)
		trigger = t
		if !tainted {
			change.RequiredReplace = changedPaths(resp.RequiresReplace, priorVal, planned)
		}
	}
	replace := false
	switch {
	case priorVal.IsNull():
		change.Action = Create
	case trigger != nil:
		replace, change.Reason, change.Trigger = true, ReplaceByTriggers, trigger
	case tainted:
		replace, change.Reason = true, ReplaceBecauseTainted
	case p.replace[addr]:
		replace, change.Reason = true, ReplaceByRequest
	case valuesEqual(planned, priorVal) && sameSensitivity(sch.Block, priorVal, priorSensitive, planned, configMarks):
		change.Action = NoOp
		// One value for both sides: an unchanged object is kept once in memory.
		change.After = priorVal
	case valuesEqual(planned, priorVal):
		// Only what is sensitive changes: an update that records it, as
		// OpenTofu and Terraform plan it (the apply calls no provider).
		change.Action = Update
	case len(change.RequiredReplace) > 0:
		replace, change.Reason = true, ReplaceBecauseCannotUpdate
	default:
		change.Action = Update
	}
	if replace {
		change.Action = replaceAction(r.Managed, change.CreateBeforeDestroy)
		// The new object is planned as a create.
		nullPrior := cty.NullVal(ty)
		proposed := provider.ProposedNew(sch.Block, nullPrior, origConfig)
		resp2 := prov.PlanResourceChange(provider.WithResourceInstance(p.ctx, addr), provider.PlanRequest{TypeName: typeName, PriorState: nullPrior, ProposedNewState: proposed, Config: origConfig, ProviderMeta: meta})
		ds = ds.Append(withAddr(provider.Redacted(resp2.Diagnostics, markedConfig).InBody(r.Config), oaddr))
		ds = ds.Append(CheckPlanned(sch.Block, nullPrior, origConfig.MarkWithPaths(configMarks), resp2, pc, addr))
		if ds.HasErrors() {
			return cty.UnknownVal(ty), ds
		}
		change.After = resp2.PlannedState
		change.PlannedPrivate = resp2.PlannedPrivate
		if change.Action.Deletes() {
			ds = ds.Append(p.preventDestroy(r, addr))
		}
	}
	if change.Action == NoOp || change.Action == Update {
		// An unchanged or updated object stays current; it keeps its status otherwise.
		change.PriorPrivate = priorPrivate
	}
	// The configuration's sensitive values, those the state recorded as
	// sensitive and the attributes the schema declares sensitive stay
	// marked in the change, for every view of it (the plan JSON's planned
	// values too, as Terraform marks a create or an update) and every
	// expression that refers to the object.
	change.Before = MarkRecorded(sch.Block, change.Before, priorSensitive)
	if change.Action == NoOp {
		change.After = change.Before
	} else {
		change.After = sch.Block.MarkSensitive(change.After.MarkWithPaths(configMarks))
	}
	if !ds.HasErrors() {
		selfScope := p.eval.Scope(addr.Module, inst)
		selfScope.Self = change.After
		for i, rule := range r.Postconditions {
			ds = ds.Append(eval.CheckRule(selfScope, rule, "Resource postcondition failed", "", p.ruleAt(checks.ResourceObject(addr), checks.Postcondition, i)))
		}
	}
	p.addChange(change)
	return change.After, ds
}

// CheckPlanned returns an error diagnostic for each way resp's planned object
// is not a valid plan from prior to config (see provider.AssertPlanValid).
// A provider using the legacy SDK type system is exempt: OpenTofu only logs
// its invalid plans, and rig drops them.
func CheckPlanned(sch *provider.Block, prior, config cty.Value, resp provider.PlanResponse, pc addrs.AbsProviderConfig, addr addrs.AbsResourceInstance) diag.Diagnostics {
	if resp.LegacyTypeSystem {
		return nil
	}
	var ds diag.Diagnostics
	for _, err := range provider.AssertPlanValid(sch, prior, config, resp.PlannedState) {
		ds = ds.Append(diag.Diagnostic{Severity: diag.Error, Summary: "Provider produced invalid plan", Address: addr.String(),
			Detail: fmt.Sprintf("Provider %q planned an invalid value for %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", pc.Provider.ForDisplay(), provider.ErrorAt(addr.String(), err))})
	}
	return ds
}

// recordUnchanged records, in the refreshed state, the dependencies,
// create_before_destroy (own or inherited) and skip_destroy of every object
// planned as a no-op: apply has no operation for them that would record these, and a
// later delete of such an object is ordered by them. OpenTofu does the same.
func (p *planner) recordUnchanged() {
	for _, c := range p.changes {
		addr := c.ObjectAddr()
		cur := p.refreshed.Object(addr)
		if c.Action != NoOp || cur == nil || cur.CreateBeforeDestroy == c.CreateBeforeDestroy && cur.SkipDestroy == c.SkipDestroy &&
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

// changedPaths returns the paths among paths whose values differ between prior and planned.
func changedPaths(paths []cty.Path, prior, planned cty.Value) []cty.Path {
	var out []cty.Path
	for _, path := range paths {
		pv, perr := path.Apply(prior)
		nv, nerr := path.Apply(planned)
		if perr != nil && nerr != nil {
			continue
		}
		if perr != nil || nerr != nil || !nv.IsKnown() || !pv.RawEquals(nv) {
			out = append(out, path)
		}
	}
	return out
}

// recordedAddr is r as recorded dependencies and create_before_destroy
// sources name it: an AbsResource whose module path has no instance keys.
func recordedAddr(r addrs.ConfigResource) addrs.AbsResource {
	return addrs.AbsResource{Module: addrs.ModuleInstance(r.Module), Resource: r.Resource}
}

// planDelete plans the deletion of a recorded object whose configuration is gone
// (or of a deposed object), ordered by the dependencies recorded in state.
func (p *planner) planDelete(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, obj *state.Object, pc addrs.AbsProviderConfig, sch provider.Schema, reason ActionReason) diag.Diagnostics {
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
	prior, priv, more := p.priorValue(prov, sch, oaddr, obj, pc)
	ds = ds.Append(more)
	prior = MarkRecorded(sch.Block, prior, RecordedPaths(obj, pc.Provider, addr.Resource.Resource.Type))
	if ds.HasErrors() {
		return ds
	}
	if prior.IsNull() {
		// Already gone: refreshing removed it from state, nothing to do.
		return ds
	}
	r := p.cfg.ConfigResource(addr.ContainingResource().InConfig())
	action := Delete
	var refusedBy string
	if forget, why := p.forgetInstead(r, addr, dk, obj); forget {
		action = Forget
		if why != ReasonNone {
			reason = why
		}
		if p.opts.Mode != DestroyMode {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Resource will be removed from the state",
				Detail: fmt.Sprintf("After this plan is applied, the resource %s will not be managed anymore by rig.\n\nIn case you want to manage the resource again, you will have to import it.", addr)})
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
	p.addChange(&ResourceInstanceChange{
		Addr: addr, Deposed: dk, ProviderConfig: pc, Action: action, Reason: reason, RefusedBy: refusedBy,
		Before: prior, After: cty.NullVal(prior.Type()), PriorPrivate: priv,
		CreateBeforeDestroy: action == Delete && (obj.CreateBeforeDestroy || dk != addrs.NotDeposed),
		Dependencies:        obj.Dependencies, SchemaVersion: obj.SchemaVersion,
	})
	return ds
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
		reason := DeleteBecauseNoResourceConfig
		switch {
		case oa.Deposed != addrs.NotDeposed:
			reason = ReasonNone
		case p.cfg.ConfigResource(ra.InConfig()) != nil && !p.eval.ModuleInstanceExists(ra.Module):
			// Only a resource still configured is deleted for its module
			// instance; without configuration (a module call removed, or
			// named by a removed block) the reason is the missing
			// configuration, as in OpenTofu.
			reason = DeleteBecauseNoModule
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
			return p.planDelete(oa.Instance, oa.Deposed, obj, pc, sch, ReasonNone)
		})
	}
	ds := w.wait()
	p.outputs = map[string]*OutputChange{}
	if selected != nil {
		// A partial destroy leaves the outputs as they are.
		return ds
	}
	for name, o := range p.prevRun.Outputs {
		p.outputs[name] = &OutputChange{Action: Delete, Before: o.Value, After: cty.NullVal(o.Value.Type()), Sensitive: o.Sensitive}
	}
	return ds
}

// planOutputs evaluates every root output against the planned values.
func (p *planner) planOutputs() diag.Diagnostics {
	var ds diag.Diagnostics
	p.outputs = map[string]*OutputChange{}
	for _, name := range slices.Sorted(maps.Keys(p.cfg.Outputs)) {
		o := p.cfg.Outputs[name]
		if o.Expr == nil || !p.sel.visits(node{kind: outputNode, name: name}) {
			// Left out of a targeted plan: it keeps its recorded value.
			continue
		}
		scope := p.eval.Scope(addrs.RootModule, lang.InstanceData{})
		for i, rule := range o.Preconditions {
			ds = ds.Append(eval.CheckRule(scope, rule, "Module output value precondition failed", "", p.ruleAt(checks.NamedObject(checks.OutputKind, addrs.RootModule, name), checks.Precondition, i)))
		}
		val, more := eval.EvalOutput(scope, o)
		ds = ds.Append(more)
		if more.HasErrors() {
			val = cty.DynamicVal
		}
		if !o.Sensitive && val.ContainsMarked() {
			ds = ds.Append(diag.At(o.DeclRange, "Output refers to sensitive values",
				"To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, rig requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true"))
		}
		before := cty.NullVal(cty.DynamicPseudoType)
		prior, had := p.prevRun.Outputs[name]
		if had {
			before = prior.Value
		}
		oc := &OutputChange{Before: before, After: val, Sensitive: o.Sensitive}
		switch {
		case val.IsNull() && before.IsNull():
			// Null outputs are not recorded, so nothing changes (OpenTofu ignores
			// sensitivity here too).
			oc.Action = NoOp
		case !had:
			oc.Action = Create
		case valuesEqual(val, before) && prior.Sensitive == o.Sensitive:
			oc.Action = NoOp
		default:
			oc.Action = Update
		}
		p.outputs[name] = oc
	}
	for name, o := range p.prevRun.Outputs {
		if _, ok := p.cfg.Outputs[name]; !ok && len(p.opts.Targets) == 0 {
			p.outputs[name] = &OutputChange{Action: Delete, Before: o.Value, After: cty.NullVal(o.Value.Type()), Sensitive: o.Sensitive}
		}
	}
	return ds
}

// valuesEqual reports whether two values are known to be equal.
func valuesEqual(a, b cty.Value) bool {
	if a.RawEquals(b) {
		// The same value with the same marks, without unmarking either.
		return true
	}
	// Marks say how a value is shown, not what it is.
	a, _ = a.UnmarkDeep()
	b, _ = b.UnmarkDeep()
	if a.RawEquals(b) {
		// The common case of an unchanged object, without Equals' allocations.
		return true
	}
	eq := a.Equals(b)
	return eq.IsKnown() && eq.True()
}

// sameSensitivity reports whether the prior object, with the sensitive
// paths the state records, and the planned one, with the configuration's
// marks, are sensitive in the same places (the schema's paths count for
// both).
func sameSensitivity(blk *provider.Block, prior cty.Value, recorded []cty.Path, planned cty.Value, configMarks []cty.PathValueMarks) bool {
	if len(recorded) == 0 && len(configMarks) == 0 {
		// The common case, without walking the values: the schema's paths
		// are the same on both sides.
		return true
	}
	_, before := marks.Paths(MarkRecorded(blk, prior, recorded))
	_, after := marks.Paths(blk.MarkSensitive(planned.MarkWithPaths(configMarks)))
	if len(before) != len(after) {
		return false
	}
	for _, p := range after {
		if !slices.ContainsFunc(before, p.Equals) {
			return false
		}
	}
	return true
}

// sensitivePaths returns the sensitive attribute paths recorded for obj
// (none when they cannot be read: they only decide what is shown).
func sensitivePaths(obj *state.Object) []cty.Path {
	paths, _ := state.ParseSensitivePaths(obj.SensitiveAttributes)
	return paths
}
