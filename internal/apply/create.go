package apply

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// createOrUpdate carries out a Create, Update or Read change, or the create
// half of a replacement: it re-evaluates the configuration now that the
// values it references are known, plans the final change, checks it against
// the saved plan, applies it and records the result.
//
// A new object's create-time provisioners run once it is recorded (as
// tainted until they succeed); their failure leaves it tainted, as a
// failed create does. The object's postconditions are left to the caller
// (see run): it returns the object (with its sensitive marks) as
// Result.NewState when it succeeded.
func (a *applier) createOrUpdate(walkCtx context.Context, op Op, c *plan.ResourceInstanceChange, info Operation) (Result, diag.Diagnostics) {
	var ds diag.Diagnostics
	oaddr := addrs.ObjectAddr{Instance: op.Addr}
	r := a.cfg.ConfigResource(op.Addr.ContainingResource().InConfig())
	if r == nil {
		return Result{}, ds.Append(diag.Errorf("Resource not in configuration", "The plan creates or updates %s, but the configuration has no such resource.", op.Addr))
	}
	sch, more := a.schema(c)
	ds = ds.Append(more)
	prov, more := a.provider(c.ProviderConfig)
	ds = ds.Append(more)
	exp, more := a.expansion(op.Addr.ContainingResource(), r)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return Result{}, ds
	}
	ty := sch.Block.ImpliedType()
	inst := exp.InstanceData(op.Addr.Resource.Key)
	scope := a.eval.Scope(op.Addr.Module, inst)
	if c.Action == plan.Read {
		for i, rule := range r.Preconditions {
			ds = ds.Append(eval.CheckRule(scope, rule, "Resource precondition failed", "", a.ruleAt(checks.ResourceObject(op.Addr), checks.Precondition, i)))
		}
		if ds.HasErrors() {
			return Result{}, ds
		}
	}
	configVal, more := scope.EvalBlock(r.Config, sch.Block.DecoderSpec())
	ds = ds.Append(more)
	if ds.HasErrors() {
		return Result{}, ds
	}
	// Providers see values without marks; the result gets the
	// configuration's sensitive marks back, for state and for dependents.
	markedConfig := configVal
	configVal, configMarks := configVal.UnmarkDeepWithPaths()
	typeName := op.Addr.Resource.Resource.Type
	configMarks = plan.WithEchoedMarks(c.ProviderConfig.Provider, typeName, configMarks)

	meta, more := a.eval.ProviderMeta(a.opCtx, a.set, op.Addr.Module, c.ProviderConfig.Provider, r.Addr.String())
	if ds = ds.Append(more); ds.HasErrors() {
		return Result{}, ds
	}
	if c.Action == plan.Read {
		resp := prov.ReadDataSource(provider.WithResourceInstance(a.opCtx, op.Addr), provider.ReadDataRequest{TypeName: typeName, Config: configVal, ProviderMeta: meta})
		if r.Check != "" && resp.Diagnostics.HasErrors() {
			// A check block's scoped data source never fails the apply:
			// its check is reported as failed, with warnings.
			a.markCheckFailed(op.Addr.Module, r.Check)
			return Result{}, ds.Append(plan.AsWarnings(withAddr(provider.Redacted(resp.Diagnostics, markedConfig).InBody(r.Config), oaddr)))
		}
		ds = ds.Append(withAddr(provider.Redacted(resp.Diagnostics, markedConfig).InBody(r.Config), oaddr))
		if ds.HasErrors() {
			return Result{}, ds
		}
		read := sch.Block.MarkSensitive(resp.State.MarkWithPaths(configMarks))
		obj, err := a.newObject(c, sch, read, nil, state.Ready)
		if err != nil {
			return Result{}, ds.Append(err)
		}
		a.values.set(op.Addr, read, obj, sch.Block.ImpliedType())
		a.awaitingDurability(walkCtx)
		if err := a.rec.record([]addrs.ObjectAddr{oaddr}, func(s *state.State) { s.SetObject(oaddr, obj, c.ProviderConfig) }); err != nil {
			ds = ds.Append(diag.Errorf("Failed to persist state", "After reading %s: %s", op.Addr, err))
		}
		return Result{NewState: read}, ds
	}

	prior, _ := c.Before.UnmarkDeep()
	priorPrivate := c.PriorPrivate
	if c.Action.Creates() {
		prior = cty.NullVal(ty)
		priorPrivate = nil
	}
	if !prior.IsNull() && r.Managed != nil {
		configVal = plan.ApplyIgnoreChanges(r.Managed, prior, configVal)
	}
	proposed := provider.ProposedNew(sch.Block, prior, configVal)
	planResp := prov.PlanResourceChange(provider.WithResourceInstance(a.opCtx, op.Addr), provider.PlanRequest{TypeName: typeName, PriorState: prior, ProposedNewState: proposed, Config: configVal, PriorPrivate: priorPrivate, ProviderMeta: meta})
	ds = ds.Append(withAddr(provider.Redacted(planResp.Diagnostics, markedConfig, c.Before).InBody(r.Config), oaddr))
	ds = ds.Append(plan.CheckPlanned(sch.Block, prior, configVal.MarkWithPaths(configMarks), planResp, c.ProviderConfig, op.Addr))
	if ds.HasErrors() {
		return Result{}, ds
	}
	planned := planResp.PlannedState
	if err := checkFinalPlan(c.After, planned); err != nil {
		return Result{}, ds.Append(diag.Diagnostic{Severity: diag.Error, Summary: "Provider produced inconsistent final plan", Address: op.Addr.String(),
			Detail: fmt.Sprintf("When expanding the plan for %s to include new values learned so far during apply, provider %q produced an invalid new value: %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", op.Addr, c.ProviderConfig.Provider.ForDisplay(), err)})
	}

	// A create_before_destroy replacement first deposes the current object.
	deposeKey, cbd := a.graph.DeposeKeys[op.Addr]
	if cbd {
		both := []addrs.ObjectAddr{oaddr, {Instance: op.Addr, Deposed: deposeKey}}
		if err := a.rec.record(both, func(s *state.State) { depose(s, op.Addr, deposeKey) }); err != nil {
			return Result{}, ds.Append(diag.Errorf("Failed to persist state", "Deposing %s: %s", op.Addr, err))
		}
	}

	var resp provider.ApplyResponse
	if eq := prior.Equals(planned); c.Action == plan.Update && eq.IsKnown() && eq.True() {
		// Only what is sensitive changes: the object is recorded with its
		// new marks, without asking the provider, as OpenTofu does.
		resp = provider.ApplyResponse{NewState: planned, Private: planResp.PlannedPrivate}
	} else {
		if a.opts.Intents != nil && c.Action.Creates() {
			// Durable before the call: a crash during it leaves the intent.
			if err := a.opts.Intents.Begin(intentOf(op.Addr, c.ProviderConfig, sch.Block, planned.MarkWithPaths(configMarks))); err != nil {
				return Result{}, ds.Append(diag.Errorf("Failed to record the create's intent", "Before creating %s: %s", op.Addr, err))
			}
			defer func() {
				// After the result is recorded (or nothing was made).
				_ = a.opts.Intents.End(op.Addr)
			}()
		}
		resp = prov.ApplyResourceChange(provider.WithResourceInstance(a.opCtx, op.Addr), provider.ApplyRequest{TypeName: typeName, PriorState: prior, PlannedState: planned, Config: configVal, PlannedPrivate: planResp.PlannedPrivate, ProviderMeta: meta})
	}
	ds = ds.Append(withAddr(provider.Redacted(resp.Diagnostics, markedConfig, c.Before).InBody(r.Config), oaddr))
	newVal := resp.NewState
	if newVal == cty.NilVal {
		newVal = cty.NullVal(ty)
	}
	failed := ds.HasErrors()
	if !failed && !newVal.IsWhollyKnown() {
		ds = ds.Append(diag.Diagnostic{Severity: diag.Error, Summary: "Provider returned invalid result object after apply", Address: op.Addr.String(),
			Detail: fmt.Sprintf("After the apply operation, the provider still indicated an unknown value for %s. All values must be known after apply, so this is always a bug in the provider and should be reported in the provider's own repository.", op.Addr)})
		failed = true
		newVal = cty.UnknownAsNull(newVal)
	}
	if !failed && !resp.LegacyTypeSystem {
		// As in OpenTofu, the object is still recorded (tainted, if created).
		for _, err := range provider.AssertObjectCompatible(sch.Block, planned.MarkWithPaths(configMarks), newVal) {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Error, Summary: "Provider produced inconsistent result after apply", Address: op.Addr.String(),
				Detail: fmt.Sprintf("When applying changes to %s, provider %q produced an unexpected new value: %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", op.Addr, c.ProviderConfig.Provider.ForDisplay(), err)})
			failed = true
		}
	}

	newVal = sch.Block.MarkSensitive(newVal.MarkWithPaths(configMarks))
	var mutate func(*state.State)
	changed := []addrs.ObjectAddr{oaddr}
	switch {
	case newVal.IsNull() && failed && cbd:
		// Rule 10: a failed create_before_destroy create with no new object restores the old one.
		mutate = func(s *state.State) { restoreDeposed(s, op.Addr, deposeKey, c.ProviderConfig) }
		changed = append(changed, addrs.ObjectAddr{Instance: op.Addr, Deposed: deposeKey})
	case newVal.IsNull() && failed && c.Action == plan.Update:
		// A failed update that returns nothing leaves the prior object as it was.
		mutate = nil
	case newVal.IsNull():
		mutate = func(s *state.State) { s.SetObject(oaddr, nil, c.ProviderConfig) }
	default:
		status := state.Ready
		if failed && c.Action.Creates() {
			// Rule 10: a failed create leaves a tainted object, replaced by the next plan.
			status = state.Tainted
		}
		if status == state.Ready && c.Action.Creates() && hasProvisioners(r, config.ProvisionerWhenCreate) {
			// The object exists: record it before the provisioners run, tainted
			// until they succeed, so that an interrupted run replaces it.
			obj, err := a.newObject(c, sch, newVal, resp.Private, state.Tainted)
			if err != nil {
				return Result{}, ds.Append(err)
			}
			if err := a.rec.record(changed, func(s *state.State) { s.SetObject(oaddr, obj, c.ProviderConfig) }); err != nil {
				return Result{NewState: newVal}, ds.Append(diag.Errorf("Failed to persist state", "After applying %s: %s", op.Addr, err))
			}
			ds = ds.Append(a.provision(walkCtx, info, r, config.ProvisionerWhenCreate, newVal, inst))
			if ds.HasErrors() {
				failed, status = true, state.Tainted
			}
		}
		if gate := gateOf(a.graph, op); gate != nil && status == state.Ready && cbd {
			// rig.hcl's health gate: nothing moves onto the new object
			// before it passes; if it does not, it is rolled back.
			passed, private, more := a.passGate(walkCtx, gate, gatedObject{op: op, c: c, r: r, sch: sch, prov: prov, meta: meta,
				inst: inst, value: newVal, private: resp.Private, deposeKey: deposeKey})
			if more.HasErrors() {
				return Result{}, ds.Append(more)
			}
			newVal, resp.Private = passed, private
		}
		obj, err := a.newObject(c, sch, newVal, resp.Private, status)
		if err != nil {
			return Result{}, ds.Append(err)
		}
		if status == state.Ready {
			a.values.set(op.Addr, newVal, obj, ty)
		}
		mutate = func(s *state.State) { s.SetObject(oaddr, obj, c.ProviderConfig) }
	}
	a.awaitingDurability(walkCtx)
	if mutate != nil {
		if err := a.rec.record(changed, mutate); err != nil {
			ds = ds.Append(diag.Errorf("Failed to persist state", "After applying %s: %s", op.Addr, err))
		}
	}
	if failed {
		return Result{NewState: newVal}, ds
	}
	return Result{NewState: newVal, NewIDValue: idOf(newVal)}, ds
}

// depose moves the current object of addr to deposed key dk.
func depose(s *state.State, addr addrs.AbsResourceInstance, dk addrs.DeposedKey) {
	inst := s.Instance(addr)
	if inst == nil || inst.Current == nil {
		return
	}
	pc := s.ObjectProvider(addr)
	obj := inst.Current
	s.SetObject(addrs.ObjectAddr{Instance: addr}, nil, pc)
	s.SetObject(addrs.ObjectAddr{Instance: addr, Deposed: dk}, obj, pc)
}

// restoreDeposed makes deposed object dk current again, unless a new current object exists.
func restoreDeposed(s *state.State, addr addrs.AbsResourceInstance, dk addrs.DeposedKey, pc addrs.AbsProviderConfig) {
	obj := s.Object(addrs.ObjectAddr{Instance: addr, Deposed: dk})
	if obj == nil {
		return
	}
	if inst := s.Instance(addr); inst != nil && inst.Current != nil {
		return
	}
	s.SetObject(addrs.ObjectAddr{Instance: addr, Deposed: dk}, nil, pc)
	s.SetObject(addrs.ObjectAddr{Instance: addr}, obj, pc)
}

// checkFinalPlan checks that every value known in the saved plan is the same
// in the final plan made at apply time.
//
// A value the saved plan has marked sensitive is not shown.
func checkFinalPlan(saved, final cty.Value) error {
	// Marks say how values are shown, not what they are.
	saved, hidden := marks.Paths(saved)
	final, _ = final.UnmarkDeep()
	show := func(path cty.Path, v cty.Value) string {
		for _, h := range hidden {
			if n := min(len(h), len(path)); cty.Path(h[:n]).Equals(path[:n]) {
				return marks.Redacted
			}
		}
		return fmt.Sprintf("%#v", v)
	}
	var bad error
	_ = cty.Walk(saved, func(path cty.Path, sv cty.Value) (bool, error) {
		if bad != nil {
			return false, nil
		}
		if !sv.IsKnown() {
			return false, nil
		}
		fv, err := path.Apply(final)
		if err != nil {
			bad = fmt.Errorf("%s is missing from the final plan", describePath(path))
			return false, nil
		}
		if !fv.IsKnown() {
			return false, nil
		}
		if sv.Type().IsPrimitiveType() || sv.IsNull() {
			if !sv.RawEquals(fv) && !(sv.IsNull() && fv.IsNull()) {
				bad = fmt.Errorf("planned value for %s was %s, but now %s", describePath(path), show(path, sv), show(path, fv))
			}
			return false, nil
		}
		if sv.Type().IsSetType() || sv.Type().IsListType() || sv.Type().IsTupleType() || sv.Type().IsMapType() {
			if sv.IsWhollyKnown() && fv.IsWhollyKnown() && !sv.RawEquals(fv) {
				bad = fmt.Errorf("planned value for %s does not match the final plan", describePath(path))
			}
			return false, nil
		}
		return true, nil
	})
	return bad
}

// describePath names the part of an object a path leads to in messages.
func describePath(path cty.Path) string {
	if len(path) == 0 {
		return "the object"
	}
	return diag.FormatPath(path)
}
