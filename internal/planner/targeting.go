package planner

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// selection is what a plan with -target or -exclude covers: the
// configuration objects it visits and the resource instances it plans.
// It is built once before the walk and read-only after.
type selection struct {
	targets, excludes []addrs.Target
	// nodes holds the reference-graph nodes a targeted plan visits;
	// excluded those a plan with excludes does not.
	nodes, excluded map[node]bool
	// whole holds the resources included as a dependency of a target:
	// every instance of them is planned.
	whole map[addrs.ConfigResource]bool
	// invoked says the plan is of -invoke: it covers nodes alone, as a
	// targeted plan does, even with no targets (invokeSelection).
	invoked bool
}

// newSelection returns the selection for targets or excludes (at most
// one of them non-empty), nil when both are empty: everything is planned.
func newSelection(rg *refGraph, targets, excludes []addrs.Target) *selection {
	if len(targets) == 0 && len(excludes) == 0 {
		return nil
	}
	s := &selection{targets: targets, excludes: excludes, nodes: map[node]bool{}, excluded: map[node]bool{}, whole: map[addrs.ConfigResource]bool{}}
	if len(targets) > 0 {
		s.selectTargets(rg)
	} else {
		s.selectExcludes(rg)
	}
	return s
}

// named reports whether n is named by one of ts: a resource they name or
// one of whose instances they name, or any object inside a module they name.
func named(n node, ts []addrs.Target) bool {
	for _, t := range ts {
		if n.kind == resourceNode && t.ContainsConfigResource(n.configResource()) || t.ContainsModule(n.module) {
			return true
		}
	}
	return false
}

// selectTargets includes the targeted objects (and the nodes extra)
// and everything they depend on, and the root outputs all of whose
// resources are included (as OpenTofu updates an output only when it is
// derived from targeted resources alone).
func (s *selection) selectTargets(rg *refGraph, extra ...node) {
	seeds := append([]node(nil), extra...)
	for _, n := range rg.g.Nodes() {
		if named(n, s.targets) {
			seeds = append(seeds, n)
		}
	}
	for _, n := range seeds {
		s.nodes[n] = true
	}
	deps := ancestors(rg, seeds)
	for n := range deps {
		s.nodes[n] = true
		if n.kind == resourceNode {
			s.whole[n.configResource()] = true
		}
	}
	for _, n := range rg.g.Nodes() {
		if n.kind != outputNode || !n.module.IsRoot() {
			continue
		}
		up := ancestors(rg, []node{n})
		resources, all := 0, true
		for d := range up {
			if d.kind == resourceNode {
				resources++
				all = all && s.nodes[d]
			}
		}
		if resources > 0 && all {
			s.nodes[n] = true
			for d := range up {
				s.nodes[d] = true
			}
		}
	}
}

// selectExcludes includes everything but the excluded objects and what
// depends on them. A resource one of whose instances is excluded stays
// (without that instance); what depends on it does not.
func (s *selection) selectExcludes(rg *refGraph) {
	out := s.excluded
	var seeds []node
	for _, n := range rg.g.Nodes() {
		if !named(n, s.excludes) {
			continue
		}
		seeds = append(seeds, n)
		if !instanceOnly(n, s.excludes) {
			out[n] = true
		}
	}
	for n := range descendants(rg, seeds) {
		out[n] = true
	}
}

// instanceOnly reports whether the only targets naming resource node n
// name some of its instances.
func instanceOnly(n node, ts []addrs.Target) bool {
	if n.kind != resourceNode {
		return false
	}
	for _, t := range ts {
		if t.ContainsConfigResource(n.configResource()) && t.Kind != addrs.InstanceTarget {
			return false
		}
	}
	return true
}

// ancestors returns the nodes the given ones depend on, transitively, without them.
func ancestors(rg *refGraph, from []node) map[node]bool {
	return reach(from, rg.g.Predecessors)
}

// descendants returns the nodes depending on the given ones, transitively, without them.
func descendants(rg *refGraph, from []node) map[node]bool {
	return reach(from, rg.g.Successors)
}

func reach(from []node, next func(node) []node) map[node]bool {
	seen := map[node]bool{}
	stack := append([]node(nil), from...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, m := range next(n) {
			if !seen[m] {
				seen[m] = true
				stack = append(stack, m)
			}
		}
	}
	return seen
}

// visits reports whether the plan visits node n.
func (s *selection) visits(n node) bool {
	switch {
	case s == nil:
		return true
	case len(s.targets) > 0 || s.invoked:
		return s.nodes[n]
	}
	return !s.excluded[n]
}

// plansInstance reports whether the plan covers resource instance addr,
// configured or not.
func (s *selection) plansInstance(addr addrs.AbsResourceInstance) bool {
	if s == nil {
		return true
	}
	if len(s.targets) > 0 || s.invoked {
		if s.whole[addr.ContainingResource().InConfig()] {
			return true
		}
		for _, t := range s.targets {
			if t.ContainsInstance(addr) {
				return true
			}
		}
		return false
	}
	if s.excluded[node{kind: resourceNode, module: addr.Module.Module(), resource: addr.Resource.Resource}] {
		return false
	}
	for _, t := range s.excludes {
		if t.ContainsInstance(addr) {
			return false
		}
	}
	return true
}

// priorResourceValue returns the value of resource addr as recorded in
// st: what references to a resource the plan leaves alone see.
func priorResourceValue(st *state.State, addr addrs.AbsResource, blk *provider.Block) cty.Value {
	rs := st.Resource(addr)
	if rs == nil {
		return cty.DynamicVal
	}
	exp := eval.Expansion{Mode: eval.Single}
	vals := map[addrs.InstanceKey]cty.Value{}
	for _, k := range rs.InstanceKeys() {
		inst := rs.Instances[k]
		if inst.Current == nil {
			continue
		}
		switch {
		case k.IsInt():
			exp.Mode = eval.Counted
		case k.IsString():
			exp.Mode = eval.ForEach
		}
		v, err := plan.ObjectValue(rs, inst.Current, blk)
		if err != nil {
			return cty.DynamicVal
		}
		exp.Keys = append(exp.Keys, k)
		vals[k] = v
	}
	return exp.WholeValue(vals)
}

// priorInstanceValue returns the recorded value of an instance the plan
// leaves alone; null when there is none.
func (p *planner) priorInstanceValue(addr addrs.AbsResourceInstance, sch provider.Schema) cty.Value {
	ty := sch.Block.ImpliedType()
	p.mu.Lock()
	defer p.mu.Unlock()
	inst := p.refreshed.Instance(addr)
	if inst == nil || inst.Current == nil {
		return cty.NullVal(ty)
	}
	v, err := plan.ObjectValue(p.refreshed.Resource(addr.ContainingResource()), inst.Current, sch.Block)
	if err != nil {
		return cty.UnknownVal(ty)
	}
	return v
}

// errTargetAndExclude is the error for -target and -exclude together.
var errTargetAndExclude = diag.Errorf("Invalid combination of arguments",
	"The target and exclude planning options are mutually-exclusive. Each plan must use either only the target options or only the exclude options.")

// destroySelection returns the recorded objects a destroy with targets
// or excludes deletes, nil when it has neither (it deletes everything).
// With targets: the targeted objects and every object that depends on
// them, transitively, by the dependencies recorded in st. With excludes:
// every object but the excluded ones and those they depend on.
func destroySelection(st *state.State, targets, excludes []addrs.Target) map[addrs.ObjectAddr]bool {
	if len(targets) == 0 && len(excludes) == 0 {
		return nil
	}
	objects := st.Objects()
	in := func(ts []addrs.Target, oa addrs.ObjectAddr) bool {
		for _, t := range ts {
			if t.ContainsInstance(oa.Instance) {
				return true
			}
		}
		return false
	}
	picked := map[addrs.ObjectAddr]bool{}
	if len(targets) > 0 {
		// Resources (as dependencies name them) with a picked object.
		gone := map[addrs.AbsResource]bool{}
		for _, oa := range objects {
			if in(targets, oa) {
				picked[oa] = true
				gone[oa.Instance.ContainingResource().Unkeyed()] = true
			}
		}
		for changed := true; changed; {
			changed = false
			for _, oa := range objects {
				if picked[oa] {
					continue
				}
				for _, d := range st.Object(oa).Dependencies {
					if gone[d] {
						picked[oa] = true
						gone[oa.Instance.ContainingResource().Unkeyed()] = true
						changed = true
						break
					}
				}
			}
		}
		return picked
	}
	kept := map[addrs.ObjectAddr]bool{}
	needed := map[addrs.AbsResource]bool{}
	keep := func(oa addrs.ObjectAddr) {
		kept[oa] = true
		for _, d := range st.Object(oa).Dependencies {
			needed[d] = true
		}
	}
	for _, oa := range objects {
		if in(excludes, oa) {
			keep(oa)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, oa := range objects {
			if !kept[oa] && needed[oa.Instance.ContainingResource().Unkeyed()] {
				keep(oa)
				changed = true
			}
		}
	}
	for _, oa := range objects {
		if !kept[oa] {
			picked[oa] = true
		}
	}
	return picked
}
