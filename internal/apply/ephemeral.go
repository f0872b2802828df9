package apply

import (
	"sync"
	"sync/atomic"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/ephemeral"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/parallel"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// ephemerals opens, during an apply, the ephemeral resources that what
// the apply evaluates refers to: each resource once, when first needed
// (after everything its configuration refers to, since the operation that
// needs it waits for that). Each is closed once the last operation that
// uses it has run (see planner.EphemeralUse), and those still open when
// the apply ends. Their problems are reported with the apply's diagnostics.
type ephemerals struct {
	a   *applier
	set *ephemeral.Set

	// uses lists, per operation, the ephemeral resources it uses;
	// pending counts, per ephemeral resource, the operations that use it
	// and have not run. Both are set before the walk; pending's counters
	// change during it.
	uses    map[Op][]addrs.ConfigResource
	pending map[addrs.ConfigResource]*atomic.Int32

	// values holds each ephemeral resource's value, opened once.
	values parallel.Memo[addrs.AbsResource, cty.Value]

	mu sync.Mutex
	// diags are the problems of opening them; guarded by mu.
	diags diag.Diagnostics
}

// track finds, before the walk, the operations of g that use each
// ephemeral resource: the creates, updates and reads of the resources
// whose configuration uses it, and every operation of a resource served by
// a provider configured from it (configured anew).
func (e *ephemerals) track(g *Graph) diag.Diagnostics {
	a := e.a
	users, ds := planner.EphemeralUsersOf(a.opCtx, a.cfg, a.set)
	if len(users) == 0 {
		return ds
	}
	// A provider configured from an ephemeral value while planning had a
	// value the plan has since closed: it is configured anew.
	a.set.Forget(func(pc addrs.AbsProviderConfig) bool {
		for _, use := range users {
			if use.UsesProvider(pc) {
				return true
			}
		}
		return false
	})
	e.uses, e.pending = EphemeralUses(g, users), map[addrs.ConfigResource]*atomic.Int32{}
	for _, rs := range e.uses {
		for _, r := range rs {
			if e.pending[r] == nil {
				e.pending[r] = new(atomic.Int32)
			}
			e.pending[r].Add(1)
		}
	}
	return ds
}

// done records that op has run, and closes the ephemeral resources it was
// the last operation to use.
func (e *ephemerals) done(op Op) {
	var release []addrs.ConfigResource
	for _, r := range e.uses[op] {
		if e.pending[r].Add(-1) == 0 {
			release = append(release, r)
		}
	}
	if len(release) > 0 {
		e.set.Release(e.a.opCtx, release...)
	}
}

// close closes every ephemeral resource the apply opened and returns the
// problems of opening, renewing and closing them.
func (e *ephemerals) close() diag.Diagnostics {
	ds := e.set.CloseAll(e.a.opCtx)
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.diags.Append(ds)
}

func newEphemerals(a *applier) *ephemerals {
	return &ephemerals{a: a, set: ephemeral.NewSet()}
}

// value returns the value of ephemeral resource r, opening its instances
// on first use.
func (e *ephemerals) value(r addrs.AbsResource) cty.Value {
	v, _ := e.values.Do(r, func(v *cty.Value) {
		var ds diag.Diagnostics
		*v, ds = e.open(r)
		if len(ds) > 0 {
			e.mu.Lock()
			e.diags = e.diags.Append(ds)
			e.mu.Unlock()
		}
	})
	return *v
}

// open opens every instance of ephemeral resource r.
func (e *ephemerals) open(r addrs.AbsResource) (cty.Value, diag.Diagnostics) {
	a := e.a
	m := a.cfg.Descendant(r.Module.Module())
	if m == nil {
		return cty.DynamicVal.Mark(marks.Ephemeral), nil
	}
	rc := m.ResourceByAddr(r.Resource)
	if rc == nil {
		return cty.DynamicVal.Mark(marks.Ephemeral), nil
	}
	exp, ds := a.expansion(r, rc)
	if ds.HasErrors() {
		return cty.DynamicVal.Mark(marks.Ephemeral), ds
	}
	ref := planner.ResolveProvider(m, rc)
	sch, more := a.set.Schemas(a.opCtx, ref.Config.Provider)
	if ds = ds.Append(more); more.HasErrors() {
		return cty.DynamicVal.Mark(marks.Ephemeral), ds
	}
	s, ok := sch.EphemeralResources[r.Resource.Type]
	if !ok {
		summary, detail := provider.UnsupportedType(ref.Config.Provider, sch, addrs.Ephemeral, r.Resource.Type)
		return cty.DynamicVal.Mark(marks.Ephemeral), ds.Append(diag.At(rc.TypeRange, summary, detail))
	}
	vals := map[addrs.InstanceKey]cty.Value{}
	for _, k := range exp.Keys {
		addr := r.Instance(k)
		inst := exp.InstanceData(k)
		pc := ref.Config
		if ref.KeyExpr != nil {
			var more diag.Diagnostics
			pc, more = planner.ProviderInstanceOf(a.eval, ref, addr, inst)
			if ds = ds.Append(more); more.HasErrors() {
				continue
			}
		}
		prov, more := a.provider(pc)
		if ds = ds.Append(more); more.HasErrors() {
			continue
		}
		v, more := planner.OpenEphemeral(a.opCtx, e.set, planner.EphemeralInstance{Config: rc, Schema: s, Provider: prov, Addr: addr, Scope: a.eval.Scope(r.Module, inst), Checks: a.checks})
		ds = ds.Append(more)
		vals[k] = v
	}
	return marks.MarkEphemeral(exp.WholeValue(vals)), ds
}
