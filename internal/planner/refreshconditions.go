package planner

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
)

// refreshConditions evaluates, in a refresh-only plan, the preconditions
// and postconditions of managed resource r's instances in module instance
// mi against the objects as refreshed (self), as OpenTofu does: a failure
// is a warning, since the plan changes nothing, and is recorded in the
// plan's check results. Instances without a recorded object are skipped.
func (p *planner) refreshConditions(m *config.Module, r *config.Resource, mi addrs.ModuleInstance) diag.Diagnostics {
	if len(r.Preconditions)+len(r.Postconditions) == 0 {
		return nil
	}
	absAddr := r.Addr.Absolute(mi)
	exp, ds := eval.Expand(p.eval.Scope(mi, lang.InstanceData{}), r)
	if ds.HasErrors() {
		return AsWarnings(ds)
	}
	p.expandChecks(absAddr, exp.Keys)
	p.mu.Lock()
	sch := p.schemas[configAddr(m, r)]
	selves := map[addrs.InstanceKey]cty.Value{}
	if rs := p.refreshed.Resource(absAddr); rs != nil && sch.Block != nil {
		for _, k := range exp.Keys {
			if inst := rs.Instances[k]; inst != nil && inst.Current != nil {
				if v, err := plan.ObjectValue(rs, inst.Current, sch.Block); err == nil {
					selves[k] = v
				}
			}
		}
	}
	p.mu.Unlock()
	for _, k := range exp.Keys {
		self, ok := selves[k]
		if !ok {
			continue
		}
		addr := absAddr.Instance(k)
		scope := p.eval.Scope(mi, exp.InstanceData(k))
		for i, rule := range r.Preconditions {
			ds = ds.Append(eval.CheckRule(scope, rule, "Resource precondition failed", "", p.ruleAt(checks.ResourceObject(addr), checks.Precondition, i)))
		}
		selfScope := p.eval.Scope(mi, exp.InstanceData(k))
		selfScope.Self = self
		for i, rule := range r.Postconditions {
			ds = ds.Append(eval.CheckRule(selfScope, rule, "Resource postcondition failed", "", p.ruleAt(checks.ResourceObject(addr), checks.Postcondition, i)))
		}
	}
	return AsWarnings(ds)
}
