package apply

import (
	"context"

	"github.com/rig-iac/rig/internal/instance"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// applyInstance carries out a Create, Update or Read change, or the create
// half of a replacement: it re-evaluates the configuration now that the
// values it references are known, has the instance's provider read it or
// apply it (instance.Apply: the final plan checked against the saved one)
// and records the result.
//
// A new object's create-time provisioners run once it is recorded (as
// tainted until they succeed); their failure leaves it tainted, as a
// failed create does. The object's postconditions are left to the caller
// (see run): it returns the object (with its sensitive marks) as
// Result.NewState when it succeeded.
func (a *applier) applyInstance(walkCtx context.Context, op Op, c *plan.ResourceInstanceChange, info Operation) (Result, diag.Diagnostics) {
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
	cfg, more := instance.EvalConfig(scope, r, sch, c.ProviderConfig)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return Result{}, ds
	}
	meta, more := a.eval.ProviderMeta(a.opCtx, a.set, op.Addr.Module, c.ProviderConfig.Provider, r.Addr.String())
	if ds = ds.Append(more); ds.HasErrors() {
		return Result{}, ds
	}
	if c.Action == plan.Read {
		res, more := a.readData(walkCtx, c, r, sch, prov, cfg, meta)
		return res, ds.Append(more)
	}

	// A create_before_destroy replacement first deposes the current object.
	req := instance.ApplyRequest{Change: c, Resource: r, Schema: sch, Provider: prov, Config: cfg, Meta: meta}
	deposeKey, cbd := a.graph.DeposeKeys[op.Addr]
	if cbd {
		req.Depose = func() diag.Diagnostics {
			both := []addrs.ObjectAddr{oaddr, {Instance: op.Addr, Deposed: deposeKey}}
			if err := a.rec.record(both, func(s *state.State) { depose(s, op.Addr, deposeKey) }); err != nil {
				return diag.Diagnostics{}.Append(diag.Errorf("Failed to persist state", "Deposing %s: %s", op.Addr, err))
			}
			return nil
		}
	}
	if a.opts.Intents != nil {
		req.BeforeCreate = func(planned, identity cty.Value) diag.Diagnostics {
			// Durable before the call: a crash during it leaves the intent.
			if err := a.opts.Intents.Begin(intentOf(op.Addr, c.ProviderConfig, sch.Block, planned, identity)); err != nil {
				return diag.Diagnostics{diag.Errorf("Failed to record the create's intent", "Before creating %s: %s", op.Addr, err)}
			}
			return nil
		}
		defer func() {
			// After the result is recorded (or nothing was made).
			_ = a.opts.Intents.End(op.Addr)
		}()
	}
	applied, more := instance.Apply(a.opCtx, req)
	ds = ds.Append(more)
	newVal, failed := applied.NewState, applied.Failed
	var mutate func(*state.State)
	changed := []addrs.ObjectAddr{oaddr}
	switch applied.Outcome {
	case instance.NotApplied:
		return Result{}, ds
	case instance.RestoreDeposed:
		mutate = func(s *state.State) { restoreDeposed(s, op.Addr, deposeKey, c.ProviderConfig) }
		changed = append(changed, addrs.ObjectAddr{Instance: op.Addr, Deposed: deposeKey})
	case instance.KeepPrior:
		mutate = nil
	case instance.RemoveObject:
		mutate = func(s *state.State) { s.SetObject(oaddr, nil, c.ProviderConfig) }
	case instance.RecordObject:
		status := applied.Status
		if status == state.Ready && c.Action.Creates() && hasProvisioners(r, config.ProvisionerWhenCreate) {
			// The object exists: record it before the provisioners run, tainted
			// until they succeed, so that an interrupted run replaces it.
			obj, err := a.newObject(c, sch, newVal, applied.Private, applied.Identity, state.Tainted)
			if err != nil {
				return Result{}, ds.Append(diag.FromError(err))
			}
			if err := a.rec.record(changed, func(s *state.State) { s.SetObject(oaddr, obj, c.ProviderConfig) }); err != nil {
				return Result{NewState: newVal}, ds.Append(diag.Errorf("Failed to persist state", "After applying %s: %s", op.Addr, err))
			}
			ds = ds.Append(a.provision(walkCtx, info, r, config.ProvisionerWhenCreate, newVal, inst))
			if ds.HasErrors() {
				failed, status = true, state.Tainted
			}
		}
		private := applied.Private
		if gate := gateOf(a.graph, op); gate != nil && status == state.Ready && cbd {
			// rig.hcl's health gate: nothing moves onto the new object
			// before it passes; if it does not, it is rolled back.
			passed, priv, more := a.passGate(walkCtx, gate, gatedObject{op: op, c: c, r: r, sch: sch, prov: prov, meta: meta,
				inst: inst, value: newVal, private: private, identity: applied.Identity, deposeKey: deposeKey})
			if more.HasErrors() {
				return Result{}, ds.Append(more)
			}
			newVal, private = passed, priv
		}
		obj, err := a.newObject(c, sch, newVal, private, applied.Identity, status)
		if err != nil {
			return Result{}, ds.Append(diag.FromError(err))
		}
		if status == state.Ready {
			a.values.set(op.Addr, newVal, obj, sch.Block.ImpliedType())
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

// readData reads the data source instance of change c with its provider
// and records the object read.
func (a *applier) readData(walkCtx context.Context, c *plan.ResourceInstanceChange, r *config.Resource, sch provider.Schema, prov provider.Interface, cfg instance.Config, meta cty.Value) (Result, diag.Diagnostics) {
	var ds diag.Diagnostics
	oaddr := addrs.ObjectAddr{Instance: c.Addr}
	got, more := instance.ReadData(a.opCtx, instance.ReadRequest{Addr: c.Addr, Resource: r, Schema: sch, Provider: prov, Config: cfg, Meta: meta})
	ds = ds.Append(more)
	if got.CheckFailed {
		// A check block's scoped data source never fails the apply:
		// its check is reported as failed, with warnings.
		a.markCheckFailed(c.Addr.Module, r.Check)
		return Result{}, ds
	}
	if ds.HasErrors() {
		return Result{}, ds
	}
	read := got.Value
	obj, err := a.newObject(c, sch, read, nil, cty.NilVal, state.Ready)
	if err != nil {
		return Result{}, ds.Append(diag.FromError(err))
	}
	a.values.set(c.Addr, read, obj, sch.Block.ImpliedType())
	a.awaitingDurability(walkCtx)
	if err := a.rec.record([]addrs.ObjectAddr{oaddr}, func(s *state.State) { s.SetObject(oaddr, obj, c.ProviderConfig) }); err != nil {
		ds = ds.Append(diag.Errorf("Failed to persist state", "After reading %s: %s", c.Addr, err))
	}
	return Result{NewState: read}, ds
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
