package planner

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
)

// TestRecordedDependenciesSharePrior: a computed list that the prior state
// records for the same resource is the prior's slice, left as it was; a
// list that differs is computed anew.
func TestRecordedDependenciesSharePrior(t *testing.T) {
	res := func(name string) node {
		return node{kind: resourceNode, module: addrs.RootModuleStatic, resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: name}}
	}
	a, b, c, d := res("a"), res("b"), res("c"), res("d")
	order := []node{a, b, c, d}
	direct := map[node][]node{b: {a}, c: {b}, d: {a}}
	addr := func(n node) addrs.AbsResource { return recordedAddr(n.configResource()) }
	prior := map[addrs.ConfigResource][]addrs.AbsResource{
		c.configResource(): {addr(a), addr(b)}, // the same list
		b.configResource(): {addr(c)},          // another list
		d.configResource(): {addr(a), addr(b)}, // a longer one
	}
	before := map[addrs.ConfigResource][]addrs.AbsResource{}
	for k, v := range prior {
		before[k] = slices.Clone(v)
	}
	got := recordedDependencies(order, direct, plan.TransitiveDependencies, prior)
	want := map[addrs.ConfigResource][]addrs.AbsResource{
		b.configResource(): {addr(a)},
		c.configResource(): {addr(a), addr(b)},
		d.configResource(): {addr(a)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("recorded dependencies (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, prior); diff != "" {
		t.Fatalf("the prior lists were modified (-before +after):\n%s", diff)
	}
	if &got[c.configResource()][0] != &prior[c.configResource()][0] {
		t.Errorf("%s's list is a new slice, not the prior state's", c)
	}
	for _, n := range []node{b, d} {
		if &got[n.configResource()][0] == &prior[n.configResource()][0] {
			t.Errorf("%s's list is the prior state's, which differs", n)
		}
	}
}
