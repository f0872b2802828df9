package planner

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
)

func TestUnionSorted(t *testing.T) {
	r := func(name string) addrs.ConfigResource {
		return addrs.ConfigResource{Resource: addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: name}}
	}
	inModule := addrs.ConfigResource{Module: addrs.RootModuleStatic.Child("m"), Resource: r("a").Resource}
	list := func(rs ...addrs.ConfigResource) []addrs.ConfigResource { return rs }
	tests := []struct {
		name      string
		own       []addrs.ConfigResource
		inherited [][]addrs.ConfigResource
		want      []addrs.ConfigResource
		// shared is the index of the inherited list returned as it is, or -1.
		shared int
	}{
		{name: "nothing", want: nil, shared: -1},
		{name: "own only, sorted and deduplicated", own: list(r("c"), r("a"), r("c")), want: list(r("a"), r("c")), shared: -1},
		{name: "one inherited list is shared", inherited: [][]addrs.ConfigResource{list(r("a"), r("b"))}, want: list(r("a"), r("b")), shared: 0},
		{name: "a list holding the others is shared",
			inherited: [][]addrs.ConfigResource{list(r("b")), list(r("a"), r("b"), r("c")), list(r("a"), r("c"))},
			want:      list(r("a"), r("b"), r("c")), shared: 1},
		{name: "lists merged with own",
			own:       list(r("d"), inModule),
			inherited: [][]addrs.ConfigResource{list(r("a"), r("e")), nil, list(r("b"), r("d")), list(inModule, r("a"))},
			want:      list(inModule, r("a"), r("b"), r("d"), r("e")), shared: -1},
		{name: "disjoint lists", inherited: [][]addrs.ConfigResource{list(r("c")), list(r("a")), list(r("b"))},
			want: list(r("a"), r("b"), r("c")), shared: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own := append([]addrs.ConfigResource(nil), tt.own...)
			got := unionSorted(own, tt.inherited)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("unionSorted (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.own, own); diff != "" {
				t.Errorf("own was modified (-before +after):\n%s", diff)
			}
			if tt.shared >= 0 && &got[0] != &tt.inherited[tt.shared][0] {
				t.Errorf("the union is not inherited list %d, shared", tt.shared)
			}
		})
	}
}
