package planner

import (
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
)

// recordedLists returns, for each resource of prior (nil: none), the
// dependency list one of its objects records, for recordedDependencies to
// share when the list it computes is the same: in a plan that changes
// little, the lists the prior state holds are the plan's, and sharing them
// saves building a second copy of every one (a resource deep in a graph of
// distinct blocks records hundreds of entries). The state's lists are
// never modified (its decoder shares them between objects), nor are the
// computed ones.
func recordedLists(prior *state.State) map[addrs.ConfigResource][]addrs.AbsResource {
	if prior == nil || len(prior.Resources) == 0 {
		return nil
	}
	out := make(map[addrs.ConfigResource][]addrs.AbsResource, len(prior.Resources))
	for addr, r := range prior.Resources {
		cr := addr.InConfig()
		if _, ok := out[cr]; ok {
			continue
		}
		for _, inst := range r.Instances {
			if inst.Current != nil && len(inst.Current.Dependencies) > 0 {
				out[cr] = inst.Current.Dependencies
				break
			}
		}
	}
	return out
}

// sameRecordedList reports whether list holds the recorded addresses of
// resources[deps[0]], resources[deps[1]], … in that order.
func sameRecordedList(list []addrs.AbsResource, deps []int32, resources []addrs.ConfigResource) bool {
	if len(list) != len(deps) {
		return false
	}
	for i, r := range deps {
		if list[i] != recordedAddr(resources[r]) {
			return false
		}
	}
	return true
}
