package planner

import (
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// planEphemeralResource opens the instances of an ephemeral resource whose
// configuration is wholly known, in every instance of module mi, so that
// what refers to them is planned with their values; an instance whose
// configuration is not yet known has an unknown value, and is opened during
// apply. Ephemeral resources have no changes and no state: the plan keeps
// only their values, marked ephemeral, for the expressions that use them,
// and closes them when planning is done.
func (p *planner) planEphemeralResource(w *objectWork, m *config.Module, r *config.Resource, mi addrs.ModuleInstance) func() {
	start, ok := p.startResource(w, m, r, mi)
	if !ok {
		return nil
	}
	absAddr, sch, exp := start.absAddr, start.sch, start.exp
	p.expandChecks(absAddr, exp.Keys)
	vals := make([]cty.Value, len(exp.Keys))
	for i, k := range exp.Keys {
		addr := absAddr.Instance(k)
		pc, prov := start.instanceProvider(p, w, k)
		if prov == nil {
			continue
		}
		inst := EphemeralInstance{Config: r, Schema: sch, Provider: prov, Addr: addr, Scope: p.eval.Scope(mi, exp.InstanceData(k)), Checks: p.checks}
		w.add(addr, pc, func() diag.Diagnostics {
			v, ds := OpenEphemeral(p.ctx, p.ephemerals, inst)
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
		p.planned[absAddr] = marks.MarkEphemeral(exp.WholeValue(byKey))
		p.mu.Unlock()
	}
}

// ephemeralVariables returns the sorted names of cfg's variables declared
// ephemeral.
func ephemeralVariables(cfg *config.Module) []string {
	var out []string
	for name, v := range cfg.Variables {
		if v.Ephemeral {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
