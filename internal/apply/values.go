package apply

import (
	"container/list"
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
//
// With stored set, the values of the objects the apply records (and of
// prior objects) are kept encoded, as the JSON of their state objects, and
// decoded again when an expression refers to their resource; the whole
// values of the resources referred to last are kept decoded, up to
// wholeBudget instances in all. An apply of 100,000 objects would
// otherwise hold every one of them decoded, several times the memory of
// the state.
type liveValues struct {
	mu     sync.Mutex
	modes  map[addrs.ConfigResource]eval.ExpansionMode
	keys   map[addrs.AbsResource][]addrs.InstanceKey
	vals   map[addrs.AbsResourceInstance]liveValue
	whole  map[addrs.AbsResource]*wholeValue
	stored bool
	// recent orders whole's entries by last use, most recent first, when
	// stored; cached counts the instances their values hold.
	recent list.List
	cached int
	// decode gives the value of an object of the prior state.
	decode func(*state.Resource, *state.Object) (cty.Value, error)
}

// liveValue is one instance's value: v, or an object to decode.
type liveValue struct {
	v cty.Value
	// obj, when set, holds the value as its state object's JSON, of type
	// ty and with marks (an object the apply recorded), or, with rs set,
	// as the prior state records it.
	obj   *state.Object
	ty    cty.Type
	marks []cty.PathValueMarks
	rs    *state.Resource
}

// wholeValue is a resource's whole value, as eval asks for it.
type wholeValue struct {
	v    cty.Value
	n    int // instances
	elem *list.Element
}

// wholeBudget bounds the instances whose values liveValues keeps decoded
// in the whole values of resources, when it stores values.
var wholeBudget = 16384

// newLiveValues starts from the plan's values; decode gives the value of
// an object of the prior state. With stored, prior objects are decoded only
// when referred to, and set keeps values as their objects' JSON.
func newLiveValues(cfg *config.Module, p *plan.Plan, decode func(*state.Resource, *state.Object) (cty.Value, error), stored bool) *liveValues {
	lv := &liveValues{
		modes:  map[addrs.ConfigResource]eval.ExpansionMode{},
		keys:   map[addrs.AbsResource][]addrs.InstanceKey{},
		vals:   map[addrs.AbsResourceInstance]liveValue{},
		whole:  map[addrs.AbsResource]*wholeValue{},
		stored: stored,
		decode: decode,
	}
	for _, m := range cfg.AllModules() {
		for _, r := range m.Resources() {
			lv.modes[addrs.ConfigResource{Module: m.Path, Resource: r.Addr}] = eval.ModeOf(r.Count, r.ForEach)
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
		lv.vals[c.Addr] = liveValue{v: c.After}
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
				if stored {
					lv.keys[ra] = append(lv.keys[ra], k)
					lv.vals[ia] = liveValue{obj: inst.Current, rs: rs}
				} else if v, err := decode(rs, inst.Current); err == nil {
					lv.keys[ra] = append(lv.keys[ra], k)
					lv.vals[ia] = liveValue{v: v}
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

// set records the value v of an instance after its operation, obj its
// state object (of type ty; nil when the apply records none).
func (lv *liveValues) set(addr addrs.AbsResourceInstance, v cty.Value, obj *state.Object, ty cty.Type) {
	val := liveValue{v: v}
	if lv.stored && obj != nil && obj.AttrsJSON != nil {
		_, marks := v.UnmarkDeepWithPaths()
		val = liveValue{obj: obj, ty: ty, marks: marks}
	}
	lv.mu.Lock()
	defer lv.mu.Unlock()
	lv.vals[addr] = val
	lv.forget(addr.ContainingResource())
}

// value returns an instance's value, decoding it if it is stored.
func (lv *liveValues) value(val liveValue) cty.Value {
	switch {
	case val.obj == nil:
		return val.v
	case val.rs != nil:
		v, err := lv.decode(val.rs, val.obj)
		if err != nil {
			return cty.DynamicVal
		}
		return v
	}
	v, err := val.obj.Decode(val.ty)
	if err != nil {
		// The object was encoded from a value of this type.
		return cty.DynamicVal
	}
	if len(val.marks) > 0 {
		v = v.MarkWithPaths(val.marks)
	}
	return v
}

// forget drops the cached whole value of r.
func (lv *liveValues) forget(r addrs.AbsResource) {
	w := lv.whole[r]
	if w == nil {
		return
	}
	delete(lv.whole, r)
	if w.elem != nil {
		lv.recent.Remove(w.elem)
		lv.cached -= w.n
	}
}

// ResourceValue implements eval.ResourceValues.
func (lv *liveValues) ResourceValue(r addrs.AbsResource) cty.Value {
	lv.mu.Lock()
	defer lv.mu.Unlock()
	if w, ok := lv.whole[r]; ok {
		if w.elem != nil {
			lv.recent.MoveToFront(w.elem)
		}
		return w.v
	}
	exp := eval.Expansion{Mode: lv.modes[r.InConfig()], Keys: lv.keys[r]}
	vals := make(map[addrs.InstanceKey]cty.Value, len(exp.Keys))
	for _, k := range exp.Keys {
		vals[k] = lv.value(lv.vals[r.Instance(k)])
	}
	w := &wholeValue{v: exp.WholeValue(vals), n: len(exp.Keys)}
	lv.whole[r] = w
	if lv.stored {
		w.elem = lv.recent.PushFront(r)
		lv.cached += w.n
		for lv.cached > wholeBudget && lv.recent.Len() > 1 {
			lv.forget(lv.recent.Back().Value.(addrs.AbsResource))
		}
	}
	return w.v
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
			v, more := a.eval.Scope(addrs.RootModule, lang.InstanceData{}).EvalExpr(o.Expr, cty.DynamicPseudoType)
			ds = ds.Append(more)
			if more.HasErrors() || !v.IsWhollyKnown() {
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
