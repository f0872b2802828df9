package planner

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// refreshResource adds to w the reads of the recorded objects of managed
// resource r of module m in module instance mi, for a refresh-only plan:
// the refreshed state records what they read, and references see the
// refreshed values (recorded by the function returned, once w is done).
// It plans no change.
func (p *planner) refreshResource(w *objectWork, m *config.Module, r *config.Resource, mi addrs.ModuleInstance) func() {
	absAddr := r.Addr.Absolute(mi)
	p.mu.Lock()
	p.handled[absAddr] = true
	sch := p.schemas[configAddr(m, r)]
	rs := p.prevRun.Resource(absAddr)
	p.mu.Unlock()
	if rs != nil {
		p.refreshObjects(w, absAddr, sch)
	}
	return func() {
		p.mu.Lock()
		p.planned[absAddr] = priorResourceValue(p.refreshed, absAddr, sch.Block)
		p.mu.Unlock()
	}
}

// refreshObjects adds to w the reads of the current objects of resource
// addr that the plan covers; a nil schema block is looked up.
func (p *planner) refreshObjects(w *objectWork, addr addrs.AbsResource, sch provider.Schema) {
	rs := p.prevRun.Resource(addr)
	if sch.Block == nil {
		s, more := p.providers.ResourceTypeSchema(p.ctx, rs.ProviderConfig.Provider, addr.Resource.Type)
		if w.note(more); more.HasErrors() {
			return
		}
		sch = s
	}
	for _, k := range rs.InstanceKeys() {
		inst := rs.Instances[k]
		if inst.Current == nil || !p.sel.plansInstance(addr.Instance(k)) {
			continue
		}
		pc := rs.InstanceProvider(k)
		if more := checkProviderInstance(p.eval, addr.Instance(k), addrs.NotDeposed, pc); more.HasErrors() {
			w.note(more)
			continue
		}
		prov, more := p.configuredProvider(pc)
		if w.note(more); more.HasErrors() {
			return
		}
		w.add(addr.Instance(k), pc, func() diag.Diagnostics {
			_, _, ds := p.priorValue(prov, sch, addrs.ObjectAddr{Instance: addr.Instance(k)}, inst.Current, pc)
			return ds
		})
	}
}

// refreshOrphans refreshes, for a refresh-only plan, the managed
// resources in state that the configuration no longer has.
func (p *planner) refreshOrphans() diag.Diagnostics {
	w := p.newWork()
	for _, ra := range p.prevRun.ResourceAddrs() {
		if p.handled[ra] || ra.Resource.Mode != addrs.Managed {
			continue
		}
		p.refreshObjects(w, ra, provider.Schema{})
	}
	return w.wait()
}

// recordDrift records that the object at addr changed outside rig, from
// before to after (null when it is gone). The caller holds p.mu.
func (p *planner) recordDrift(addr addrs.ObjectAddr, pc addrs.AbsProviderConfig, before, after cty.Value) {
	c := &plan.ResourceInstanceChange{Addr: addr.Instance, Deposed: addr.Deposed, ProviderConfig: pc, Action: plan.Update, Before: before, After: after}
	if after.IsNull() {
		c.Action = plan.Delete
	}
	p.drift = append(p.drift, c)
	p.refresh.noteTouched(addr.Instance)
}

type noRefreshHooks struct{}

func (noRefreshHooks) PreRefresh(addrs.ObjectAddr, cty.Value)  {}
func (noRefreshHooks) PostRefresh(addrs.ObjectAddr, cty.Value) {}

// refreshHooks returns the hooks of the plan, or hooks that do nothing.
func (p *planner) refreshHooks() plan.RefreshHooks {
	if p.opts.Hooks == nil {
		return noRefreshHooks{}
	}
	return p.opts.Hooks
}
