package apply

import (
	"context"
	"slices"
	"sync"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// liveValues holds the value of every instance that exists after the apply
// (planned values at first, replaced by real ones as operations complete),
// so that expressions evaluated during apply see what has been done so far.
// It is safe for concurrent use.
type liveValues struct {
	mu    sync.Mutex
	modes map[addrs.ConfigResource]eval.ExpansionMode
	keys  map[addrs.AbsResource][]addrs.InstanceKey
	vals  map[addrs.AbsResourceInstance]cty.Value
	whole map[addrs.AbsResource]cty.Value
}

// newLiveValues starts from the plan's values; decode gives the value of
// an object of the prior state.
func newLiveValues(cfg *config.Module, p *plan.Plan, decode func(*state.Resource, *state.Object) (cty.Value, error)) *liveValues {
	lv := &liveValues{
		modes: map[addrs.ConfigResource]eval.ExpansionMode{},
		keys:  map[addrs.AbsResource][]addrs.InstanceKey{},
		vals:  map[addrs.AbsResourceInstance]cty.Value{},
		whole: map[addrs.AbsResource]cty.Value{},
	}
	for _, m := range cfg.AllModules() {
		for _, r := range m.Resources() {
			lv.modes[addrs.ConfigResource{Module: m.Path, Resource: r.Addr}] = eval.ModeOf(r.Count, r.ForEach, r.Enabled)
		}
	}
	changed := map[addrs.AbsResourceInstance]bool{}
	for _, c := range p.Changes {
		if c.Deposed == addrs.NotDeposed {
			changed[c.Addr] = true
		}
		if c.Deposed != addrs.NotDeposed || c.Action == plan.Delete {
			continue
		}
		r := c.Addr.ContainingResource()
		lv.keys[r] = append(lv.keys[r], c.Addr.Resource.Key)
		lv.vals[c.Addr] = c.After
	}
	// Objects the plan has no change for are as the prior state records
	// them: data sources read during planning, and the objects a targeted
	// or refresh-only plan leaves alone.
	if p.PriorState != nil {
		for ra, rs := range p.PriorState.Resources {
			for k, inst := range rs.Instances {
				ia := ra.Instance(k)
				if changed[ia] || inst.Current == nil {
					continue
				}
				if v, err := decode(rs, inst.Current); err == nil {
					lv.keys[ra] = append(lv.keys[ra], k)
					lv.vals[ia] = v
				}
			}
		}
	}
	// Count keys in numeric order: a tuple's elements follow them.
	for r, keys := range lv.keys {
		slices.SortFunc(keys, addrs.InstanceKey.Compare)
		lv.keys[r] = keys
	}
	return lv
}

// priorDecoder decodes the prior-state objects of data sources with their
// schemas, so that dynamically typed attributes keep their types, with
// their sensitive attributes marked. Other objects, and those whose
// schema the provider does not give, are decoded with the type their JSON
// implies.
func priorDecoder(ctx context.Context, set *provider.Set) func(*state.Resource, *state.Object) (cty.Value, error) {
	return func(rs *state.Resource, obj *state.Object) (cty.Value, error) {
		if set == nil || rs.Addr.Resource.Mode != addrs.Data {
			return decodeImplied(obj)
		}
		sch, ds := set.DataSourceSchema(ctx, rs.ProviderConfig.Provider, rs.Addr.Resource.Type)
		if ds.HasErrors() || sch.Block == nil {
			return decodeImplied(obj)
		}
		v, err := obj.Decode(sch.Block.ImpliedType())
		if err != nil {
			return decodeImplied(obj)
		}
		paths, _ := state.ParseSensitivePaths(obj.SensitiveAttributes)
		return plan.MarkSensitive(v, paths), nil
	}
}

func decodeImplied(obj *state.Object) (cty.Value, error) {
	ty, err := impliedType(obj.AttrsJSON)
	if err != nil {
		return cty.NilVal, err
	}
	return obj.Decode(ty)
}

// set records the value of an instance after its operation.
func (lv *liveValues) set(addr addrs.AbsResourceInstance, v cty.Value) {
	lv.mu.Lock()
	defer lv.mu.Unlock()
	lv.vals[addr] = v
	delete(lv.whole, addr.ContainingResource())
}

// ResourceValue implements eval.ResourceValues.
func (lv *liveValues) ResourceValue(r addrs.AbsResource) cty.Value {
	lv.mu.Lock()
	defer lv.mu.Unlock()
	if v, ok := lv.whole[r]; ok {
		return v
	}
	exp := eval.Expansion{Mode: lv.modes[r.InConfig()], Keys: lv.keys[r]}
	vals := make(map[addrs.InstanceKey]cty.Value, len(exp.Keys))
	for _, k := range exp.Keys {
		vals[k] = lv.vals[r.Instance(k)]
	}
	v := exp.WholeValue(vals)
	lv.whole[r] = v
	return v
}

// recordOutputs evaluates the root outputs with the applied values and records them.
func (a *applier) recordOutputs() diag.Diagnostics {
	var ds diag.Diagnostics
	outs := map[string]state.OutputValue{}
	// An output the plan has no change for (one a targeted plan leaves
	// alone) keeps its recorded value.
	for name, o := range a.priorOutputs {
		if _, ok := a.plan.Outputs[name]; !ok {
			outs[name] = o
		}
	}
	if a.plan.Mode != plan.DestroyMode {
		for name, o := range a.cfg.Outputs {
			if _, ok := a.plan.Outputs[name]; o.Expr == nil || !ok {
				continue
			}
			v, more := eval.EvalOutput(a.eval.Scope(addrs.RootModule, lang.InstanceData{}), o)
			ds = ds.Append(more)
			if more.HasErrors() || !v.IsWhollyKnown() || v.IsNull() {
				// A null output is not recorded (as OpenTofu drops it): it
				// is absent from the state and from `rig output`.
				continue
			}
			outs[name] = state.OutputValue{Value: v, Sensitive: o.Sensitive}
		}
	}
	if err := a.rec.recordOutputs(outs); err != nil {
		ds = ds.Append(diag.Errorf("Failed to persist state", "Recording outputs: %s", err))
	}
	return ds
}
