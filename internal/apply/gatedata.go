package apply

import (
	"context"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/instance"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
)

// gateDataSources returns the data resources the postconditions of r (the
// resource of op) refer to, in op's module instance: what a health gate
// reads again before each of its checks, since the answer of a data
// source (an HTTP health check) changes as the new object comes up. An
// instance named by a literal key is kept alone; otherwise every instance.
func gateDataSources(op Op, r *config.Resource) []dataRef {
	var out []dataRef
	for _, rule := range r.Postconditions {
		for _, expr := range []hcl.Expression{rule.Condition, rule.ErrorMessage} {
			if expr == nil {
				continue
			}
			refs, _ := lang.ReferencesInExpr(expr)
			for _, ref := range refs {
				if ref.Kind != lang.ResourceRef || ref.Resource.Mode != addrs.Data {
					continue
				}
				d := dataRef{res: ref.Resource.Absolute(op.Addr.Module), key: ref.Key, keyGiven: ref.KeyGiven}
				if !slices.Contains(out, d) {
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// dataRef is a data resource a condition refers to, or one of its
// instances when keyGiven.
type dataRef struct {
	res      addrs.AbsResource
	key      addrs.InstanceKey
	keyGiven bool
}

// rereadData reads the data sources refs name again, each instance with
// its configuration evaluated now, and makes what they read their values
// (for the conditions evaluated next, and in the state).
func (a *applier) rereadData(refs []dataRef) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, ref := range refs {
		m := a.cfg.Descendant(ref.res.Module.Module())
		if m == nil {
			continue
		}
		rd := m.ResourceByAddr(ref.res.Resource)
		if rd == nil {
			continue
		}
		exp, more := a.expansion(ref.res, rd)
		if ds = ds.Append(more); more.HasErrors() {
			continue
		}
		keys := exp.Keys
		if ref.keyGiven {
			keys = []addrs.InstanceKey{ref.key}
		}
		for _, k := range keys {
			ds = ds.Append(a.rereadDataInstance(ref.res.Instance(k), m, rd, exp.InstanceData(k)))
		}
	}
	return ds
}

// rereadDataInstance reads data source instance addr again.
func (a *applier) rereadDataInstance(addr addrs.AbsResourceInstance, m *config.Module, rd *config.Resource, inst lang.InstanceData) diag.Diagnostics {
	pc, ds := planner.ProviderInstanceOf(a.eval, planner.ResolveProvider(m, rd), addr, inst)
	if ds.HasErrors() {
		return ds
	}
	c := &plan.ResourceInstanceChange{Addr: addr, ProviderConfig: pc, Action: plan.Read}
	sch, more := a.schema(c)
	ds = ds.Append(more)
	prov, more := a.provider(pc)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	cfg, more := instance.EvalConfig(a.eval.Scope(addr.Module, inst), rd, sch, pc)
	if ds = ds.Append(more); ds.HasErrors() || !cfg.Value.IsWhollyKnown() {
		// A configuration that refers to what is not applied yet (the
		// gated object itself among them) is read by its own operation.
		return ds
	}
	meta, more := a.eval.ProviderMeta(a.opCtx, a.set, addr.Module, pc.Provider, rd.Addr.String())
	if ds = ds.Append(more); ds.HasErrors() {
		return ds
	}
	// The gate's operation keeps its slot: no walk context to release.
	_, more = a.readData(context.Background(), c, rd, sch, prov, cfg, meta)
	return ds.Append(more)
}
