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
	"github.com/rig-iac/rig/internal/marks"
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
	// decodedBytes counts the JSON of the recorded objects whose values
	// set keeps decoded as well, up to decodedBudget.
	decodedBytes int
	// decode gives the value of an object of the prior state.
	decode func(*state.Resource, *state.Object) (cty.Value, error)
	// ephemeral gives the value of an ephemeral resource, opening it.
	ephemeral func(addrs.AbsResource) cty.Value
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

// decodedBudget bounds, in bytes of their state objects' JSON, the
// recorded values liveValues keeps decoded when it stores values: an apply
// of a few thousand objects keeps them all (decoding each again for every
// resource that refers to it costs more than the memory it saves), a large
// one keeps the first (some tens of megabytes decoded) and stores the rest.
var decodedBudget = 4 << 20

// newLiveValues starts from the plan's values, as dec gives them. With
// stored, prior objects are decoded only when referred to, and set keeps
// values as their objects' JSON.
func newLiveValues(cfg *config.Module, p *plan.Plan, dec valueDecoder, stored bool) *liveValues {
	lv := &liveValues{
		modes:  map[addrs.ConfigResource]eval.ExpansionMode{},
		keys:   map[addrs.AbsResource][]addrs.InstanceKey{},
		vals:   make(map[addrs.AbsResourceInstance]liveValue, len(p.Changes)),
		whole:  map[addrs.AbsResource]*wholeValue{},
		stored: stored,
		decode: dec.prior,
	}
	for _, m := range cfg.AllModules() {
		for _, r := range m.Resources() {
			lv.modes[addrs.ConfigResource{Module: m.Path, Resource: r.Addr}] = eval.ModeOf(r.Count, r.ForEach, r.Enabled)
		}
	}
	changed := make(map[addrs.AbsResourceInstance]bool, len(p.Changes))
	for _, c := range p.Changes {
		if c.Deposed == addrs.NotDeposed {
			changed[c.Addr] = true
		}
		if c.Deposed != addrs.NotDeposed || c.Action == plan.Delete {
			continue
		}
		r := c.Addr.ContainingResource()
		lv.keys[r] = append(lv.keys[r], c.Addr.Resource.Key)
		lv.vals[c.Addr] = liveValue{v: dec.planned(c)}
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
				} else if v, err := dec.prior(rs, inst.Current); err == nil {
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

// valueDecoder gives the values expressions see of the objects an apply
// starts from, marked sensitive where the state records a sensitive value
// or the plan marks one, and where the schema declares one.
type valueDecoder struct {
	ctx context.Context
	set *provider.Set
}

// schema returns the block of resource r's schema; nil when the provider
// does not give it.
func (d valueDecoder) schema(r addrs.AbsResource, p addrs.Provider) *provider.Block {
	if d.set == nil {
		return nil
	}
	var sch provider.Schema
	var ds diag.Diagnostics
	if r.Resource.Mode == addrs.Data {
		sch, ds = d.set.DataSourceSchema(d.ctx, p, r.Resource.Type)
	} else {
		sch, ds = d.set.ResourceTypeSchema(d.ctx, p, r.Resource.Type)
	}
	if ds.HasErrors() {
		return nil
	}
	return sch.Block
}

// planned returns the planned value of change c.
func (d valueDecoder) planned(c *plan.ResourceInstanceChange) cty.Value {
	return d.schema(c.Addr.ContainingResource(), c.ProviderConfig.Provider).MarkSensitive(c.After)
}

// prior decodes a prior-state object with its schema, so that dynamically
// typed attributes keep their types; one whose schema the provider does
// not give is decoded with the type its JSON implies.
func (d valueDecoder) prior(rs *state.Resource, obj *state.Object) (cty.Value, error) {
	if blk := d.schema(rs.Addr, rs.ProviderConfig.Provider); blk != nil {
		if v, err := plan.ObjectValue(rs, obj, blk); err == nil {
			return v, nil
		}
	}
	v, err := decodeImplied(obj)
	if err != nil {
		return v, err
	}
	return marks.MarkPaths(v, plan.RecordedPaths(obj, rs.ProviderConfig.Provider, rs.Addr.Resource.Type)), nil
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
	lv.mu.Lock()
	defer lv.mu.Unlock()
	if lv.stored && obj != nil && obj.AttrsJSON != nil {
		if lv.decodedBytes+len(obj.AttrsJSON) <= decodedBudget {
			lv.decodedBytes += len(obj.AttrsJSON)
		} else {
			_, marks := v.UnmarkDeepWithPaths()
			val = liveValue{obj: obj, ty: ty, marks: marks}
		}
	}
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
	if r.Resource.Mode == addrs.Ephemeral && lv.ephemeral != nil {
		return lv.ephemeral(r)
	}
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

// recordOutputs evaluates the root outputs with the applied values and
// records them. After a partly failed apply (part not nil), an output that
// depends on a failed resource keeps its recorded value.
func (a *applier) recordOutputs(part *partial) diag.Diagnostics {
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
			if !part.outputOK(addrs.RootModule.Module(), name) {
				if prior, ok := a.priorOutputs[name]; ok {
					outs[name] = prior
				}
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
