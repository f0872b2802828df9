package planner

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
)

// TestRecordedDependencyBitsMatchLists: the sets computed as bitsets are
// the sets computed as sorted lists, on random graphs of managed
// resources, data sources and other nodes, in both modes, more than 64
// resources included.
func TestRecordedDependencyBitsMatchLists(t *testing.T) {
	defer func(max int) { maxBitsetResources = max }(maxBitsetResources)
	r := rand.New(rand.NewPCG(7, 8))
	for round := range 200 {
		n := 2 + r.IntN(150)
		var order []node
		for i := range n {
			switch k := r.IntN(10); {
			case k < 6:
				order = append(order, node{kind: resourceNode, resource: addrs.Resource{Mode: addrs.Managed, Type: "t", Name: fmt.Sprintf("r%d", i)}})
			case k < 8:
				order = append(order, node{kind: resourceNode, resource: addrs.Resource{Mode: addrs.Data, Type: "t", Name: fmt.Sprintf("d%d", i)}})
			default:
				order = append(order, node{kind: localNode, name: fmt.Sprintf("l%d", i)})
			}
		}
		direct := map[node][]node{}
		for i := 1; i < n; i++ {
			for range r.IntN(4) {
				direct[order[i]] = append(direct[order[i]], order[r.IntN(i)])
			}
		}
		for _, mode := range []plan.DependencyMode{plan.TransitiveDependencies, plan.ReducedDependencies} {
			maxBitsetResources = 0
			lists := recordedDependencies(order, direct, mode, nil)
			maxBitsetResources = 4096
			bitsets := recordedDependencies(order, direct, mode, nil)
			if diff := cmp.Diff(lists, bitsets); diff != "" {
				t.Fatalf("round %d, mode %d: bitsets differ from lists (-lists +bitsets):\n%s", round, mode, diff)
			}
		}
	}
}
