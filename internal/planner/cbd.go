package planner

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
)

// forceCBD completes create_before_destroy inheritance over the planned
// changes. The configuration's own inheritance (inheritCBD) cannot see
// objects that are only in state: an orphan or deposed object recorded as
// create_before_destroy, or the old object of a create-first replacement
// whose recorded dependencies differ from its configuration's. Every
// resource such an object depends on, directly or transitively, must be
// replaced create-first too, or the operation graph has a cycle (its
// deposed destroy waits for their creates, which wait for their deletes,
// which wait for it). An object updated in place leaves no old object
// behind, so its recorded dependencies force nothing: they are replaced as
// their own settings say, deleted before the update as OpenTofu orders it.
// One breadth-first pass over the changes: O(changes + deps).
func forceCBD(changes []*plan.ResourceInstanceChange, prior *state.State) {
	byResource := map[addrs.AbsResource][]*plan.ResourceInstanceChange{}
	for _, c := range changes {
		// Dependencies name resources without module instance keys.
		ra := c.Addr.ContainingResource().Unkeyed()
		byResource[ra] = append(byResource[ra], c)
	}
	deps := func(c *plan.ResourceInstanceChange) []addrs.AbsResource {
		out := c.Dependencies
		if obj := prior.Object(c.ObjectAddr()); obj != nil && c.Action == plan.CreateThenDelete {
			out = append(append([]addrs.AbsResource(nil), out...), obj.Dependencies...)
		}
		return out
	}
	// source records, for each forced resource, the resource that forced it;
	// via the resource that depends on it and passed it on.
	source := map[addrs.AbsResource]addrs.AbsResource{}
	via := map[addrs.AbsResource]addrs.AbsResource{}
	var queue []addrs.AbsResource
	visit := func(from *plan.ResourceInstanceChange) {
		self := from.Addr.ContainingResource().Unkeyed()
		origin := self
		if from.CBDInheritedFrom != (addrs.AbsResource{}) {
			origin = from.CBDInheritedFrom
		}
		for _, d := range deps(from) {
			if _, seen := source[d]; seen {
				continue
			}
			source[d] = origin
			via[d] = self
			queue = append(queue, d)
		}
	}
	for _, c := range changes {
		if c.CreateBeforeDestroy {
			visit(c)
		}
	}
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		for _, c := range byResource[r] {
			if !c.CreateBeforeDestroy {
				c.CreateBeforeDestroy = true
				c.CBDInheritedFrom = source[r]
				c.CBDVia = via[r]
				if c.Action == plan.DeleteThenCreate {
					c.Action = plan.CreateThenDelete
				}
			}
			visit(c)
		}
	}
}
