package planner

import (
	"math/bits"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
)

// maxBitsetResources is the number of resources up to which
// recordedDependencies computes its sets as bitsets, a bit per resource in
// the order of their addresses (a few hundred bytes a node), rather than as
// sorted lists merged pairwise: a union of sets of hundreds of entries is
// then a few dozen word operations.
var maxBitsetResources = 4096

// recordedDependencyBits is recordedDependencies with each node's set a
// bitset over resources (sorted; rank numbers them). A node whose set is
// one of its predecessors' shares that bitset, and each distinct bitset
// becomes one slice of addresses.
func recordedDependencyBits(order []node, direct map[node][]node, mode plan.DependencyMode, prior map[addrs.ConfigResource][]addrs.AbsResource, resources []addrs.ConfigResource, rank map[addrs.ConfigResource]int32) map[addrs.ConfigResource][]addrs.AbsResource {
	words := (len(resources) + 63) / 64
	asAddrs := map[*uint64][]addrs.AbsResource{}
	out := make(map[addrs.ConfigResource][]addrs.AbsResource, len(resources))
	// closure holds, for every node with a non-empty set, what a node
	// referring to it inherits.
	closure := make(map[node][]uint64, len(order))
	set := make([]uint64, words)
	var inherited [][]uint64
	for _, n := range order {
		clear(set)
		inherited = inherited[:0]
		empty := true
		for _, d := range direct[n] {
			if d.kind == resourceNode {
				r := rank[d.configResource()]
				set[r/64] |= 1 << (r % 64)
				empty = false
				// A data source is never destroyed and records no
				// dependencies, so what it depends on is recorded on its
				// dependents (see recordedDependencies).
				if mode == plan.ReducedDependencies && d.resource.Mode == addrs.Managed {
					continue
				}
			}
			if c := closure[d]; c != nil {
				for i, w := range c {
					set[i] |= w
				}
				inherited = append(inherited, c)
				empty = false
			}
		}
		if empty {
			continue
		}
		var deps []uint64
		for _, c := range inherited {
			if slices.Equal(c, set) {
				deps = c
				break
			}
		}
		if deps == nil {
			deps = slices.Clone(set)
		}
		if n.kind != resourceNode || mode == plan.TransitiveDependencies || n.resource.Mode != addrs.Managed {
			closure[n] = deps
		}
		if n.kind != resourceNode {
			continue
		}
		list, ok := asAddrs[&deps[0]]
		if !ok {
			if was := prior[n.configResource()]; sameRecordedBits(was, deps, resources) {
				list = was
			} else {
				list = make([]addrs.AbsResource, 0, popCount(deps))
				forEachBit(deps, func(r int) { list = append(list, recordedAddr(resources[r])) })
			}
			asAddrs[&deps[0]] = list
		}
		out[n.configResource()] = list
	}
	return out
}

// popCount is the number of bits set in set.
func popCount(set []uint64) int {
	n := 0
	for _, w := range set {
		n += bits.OnesCount64(w)
	}
	return n
}

// forEachBit calls f with the number of each bit set in set, in order.
func forEachBit(set []uint64, f func(int)) {
	for i, w := range set {
		for w != 0 {
			f(i*64 + bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}

// sameRecordedBits reports whether list holds the recorded addresses of
// the resources whose bits set holds, in order.
func sameRecordedBits(list []addrs.AbsResource, set []uint64, resources []addrs.ConfigResource) bool {
	if list == nil || len(list) != popCount(set) {
		return false
	}
	i, same := 0, true
	forEachBit(set, func(r int) {
		if same && list[i] != recordedAddr(resources[r]) {
			same = false
		}
		i++
	})
	return same
}
