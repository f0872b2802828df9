package planner

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
)

func TestUnionSorted(t *testing.T) {
	list := func(rs ...int32) []int32 { return rs }
	tests := []struct {
		name      string
		own       []int32
		inherited [][]int32
		want      []int32
		// shared is the index of the inherited list returned as it is, or -1.
		shared int
	}{
		{name: "nothing", want: nil, shared: -1},
		{name: "own only, sorted and deduplicated", own: list(3, 1, 3), want: list(1, 3), shared: -1},
		{name: "one inherited list is shared", inherited: [][]int32{list(1, 2)}, want: list(1, 2), shared: 0},
		{name: "a list holding the others is shared",
			inherited: [][]int32{list(2), list(1, 2, 3), list(1, 3)},
			want:      list(1, 2, 3), shared: 1},
		{name: "lists merged with own",
			own:       list(4, 0),
			inherited: [][]int32{list(1, 5), nil, list(2, 4), list(0, 1)},
			want:      list(0, 1, 2, 4, 5), shared: -1},
		{name: "disjoint lists", inherited: [][]int32{list(3), list(1), list(2)},
			want: list(1, 2, 3), shared: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var inherited [][]int32
			for _, l := range tt.inherited {
				inherited = append(inherited, slices.Clone(l))
			}
			got := unionSorted(slices.Clone(tt.own), inherited)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("unionSorted (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.inherited, inherited); diff != "" {
				t.Errorf("an inherited list was modified (-before +after):\n%s", diff)
			}
			if tt.shared >= 0 && &got[0] != &inherited[tt.shared][0] {
				t.Errorf("the union is not inherited list %d, shared", tt.shared)
			}
		})
	}
}

// TestRecordedDependencies: each resource records, transitively, the
// resources it refers to through other resources, local values and data
// sources, sorted as their addresses print; resources with the same list
// share one slice.
func TestRecordedDependencies(t *testing.T) {
	res := func(module addrs.Module, mode addrs.ResourceMode, name string) node {
		return node{kind: resourceNode, module: module, resource: addrs.Resource{Mode: mode, Type: "terraform_data", Name: name}}
	}
	m := addrs.RootModuleStatic.Child("m")
	z := res(m, addrs.Managed, "z")
	a := res(addrs.RootModuleStatic, addrs.Managed, "a")
	b := res(addrs.RootModuleStatic, addrs.Managed, "b")
	e := res(addrs.RootModuleStatic, addrs.Data, "e")
	x := node{kind: localNode, module: addrs.RootModuleStatic, name: "x"}
	c := res(m, addrs.Managed, "c")
	f := res(addrs.RootModuleStatic, addrs.Managed, "f")
	order := []node{z, a, b, e, x, c, f}
	direct := map[node][]node{
		b: {a, z},
		e: {a},
		x: {b, e},
		c: {x},
		f: {x},
	}
	recorded := func(ns ...node) []addrs.AbsResource {
		var out []addrs.AbsResource
		for _, n := range ns {
			out = append(out, recordedAddr(n.configResource()))
		}
		return out
	}
	tests := []struct {
		mode plan.DependencyMode
		want map[addrs.ConfigResource][]addrs.AbsResource
	}{
		{plan.TransitiveDependencies, map[addrs.ConfigResource][]addrs.AbsResource{
			b.configResource(): recorded(z, a),
			e.configResource(): recorded(a),
			c.configResource(): recorded(e, z, a, b),
			f.configResource(): recorded(e, z, a, b),
		}},
		// A data source passes on what it depends on; managed resources
		// do not.
		{plan.ReducedDependencies, map[addrs.ConfigResource][]addrs.AbsResource{
			b.configResource(): recorded(z, a),
			e.configResource(): recorded(a),
			c.configResource(): recorded(e, a, b),
			f.configResource(): recorded(e, a, b),
		}},
	}
	for _, tt := range tests {
		got := recordedDependencies(order, direct, tt.mode, nil)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("mode %d: recorded dependencies (-want +got):\n%s", tt.mode, diff)
			continue
		}
		if &got[c.configResource()][0] != &got[f.configResource()][0] {
			t.Errorf("mode %d: %s and %s record the same list in two slices", tt.mode, c, f)
		}
	}
}
