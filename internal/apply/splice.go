package apply

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
)

// splicer keeps recorded dependencies right when objects record only their
// direct dependencies (rig.hcl's recorded_dependencies = "reduced"): once
// the last object of a resource the plan removes is deleted, every object
// still in state that recorded that resource records its dependencies
// instead, so that a later destroy of what is left stays ordered.
//
// left is updated by the workers; deps and dependents are owned by the
// recorder goroutine (they are used only inside its mutations).
type splicer struct {
	// left counts the deletes still to complete of each resource the plan
	// removes entirely, keyed as recorded dependencies name resources.
	left map[addrs.AbsResource]*atomic.Int32
	// deps holds the dependencies the removed resources' objects recorded.
	deps map[addrs.AbsResource][]addrs.AbsResource
	// dependents holds the objects recording each removed resource.
	dependents map[addrs.AbsResource][]addrs.ObjectAddr
}

// newSplicer finds the resources p removes entirely: every object of them
// in the prior state is deleted and nothing of them is kept or created.
func newSplicer(p *plan.Plan) *splicer {
	sp := &splicer{left: map[addrs.AbsResource]*atomic.Int32{}, deps: map[addrs.AbsResource][]addrs.AbsResource{},
		dependents: map[addrs.AbsResource][]addrs.ObjectAddr{}}
	prior := p.PriorState
	if prior == nil {
		return sp
	}
	objects := map[addrs.AbsResource]int{}
	for _, oa := range prior.Objects() {
		objects[oa.Instance.ContainingResource().Unkeyed()]++
	}
	deletes := map[addrs.AbsResource]int{}
	kept := map[addrs.AbsResource]bool{}
	for _, c := range p.Changes {
		r := c.Addr.ContainingResource().Unkeyed()
		if c.Action == plan.Delete && r.Resource.Mode == addrs.Managed {
			deletes[r]++
		} else {
			kept[r] = true
		}
	}
	for r, n := range deletes {
		if kept[r] || n != objects[r] {
			continue
		}
		sp.left[r] = new(atomic.Int32)
		sp.left[r].Store(int32(n))
	}
	for _, oa := range prior.Objects() {
		obj := prior.Object(oa)
		r := oa.Instance.ContainingResource().Unkeyed()
		if _, removed := sp.left[r]; removed {
			// Objects of one resource normally record the same list.
			sp.deps[r] = unionDeps(sp.deps[r], obj.Dependencies, r)
		}
		for _, d := range obj.Dependencies {
			if _, removed := sp.left[d]; removed {
				sp.dependents[d] = append(sp.dependents[d], oa)
			}
		}
	}
	return sp
}

// unionDeps returns the sorted union of a and b without self.
func unionDeps(a, b []addrs.AbsResource, self addrs.AbsResource) []addrs.AbsResource {
	out := make([]addrs.AbsResource, 0, len(a)+len(b))
	for _, list := range [][]addrs.AbsResource{a, b} {
		for _, d := range list {
			if d != self {
				out = append(out, d)
			}
		}
	}
	slices.SortFunc(out, func(x, y addrs.AbsResource) int { return strings.Compare(x.String(), y.String()) })
	return slices.Compact(out)
}

// deleted is called after an object of resource r (keyed as recorded
// dependencies name it) was deleted; it returns the mutation that splices
// r's dependencies into its dependents once r has no object left, or nil.
func (sp *splicer) deleted(r addrs.AbsResource) func(*state.State) []addrs.ObjectAddr {
	if sp == nil {
		return nil
	}
	n := sp.left[r]
	if n == nil || n.Add(-1) != 0 {
		return nil
	}
	return func(s *state.State) []addrs.ObjectAddr {
		var changed []addrs.ObjectAddr
		repl := sp.deps[r]
		for _, d := range sp.dependents[r] {
			self := d.Instance.ContainingResource().Unkeyed()
			if _, removed := sp.left[self]; removed {
				// Its own deletion passes on what it depends on.
				sp.deps[self] = state.SplicedDependencies(sp.deps[self], r, repl, self)
			}
			obj := s.Object(d)
			if obj == nil || !slices.Contains(obj.Dependencies, r) {
				continue
			}
			cp := *obj
			cp.Dependencies = state.SplicedDependencies(obj.Dependencies, r, repl, self)
			s.SetObject(d, &cp, s.ObjectProvider(d.Instance))
			changed = append(changed, d)
			for _, x := range repl {
				if _, removed := sp.left[x]; removed {
					sp.dependents[x] = append(sp.dependents[x], d)
				}
			}
		}
		return changed
	}
}
