package graphview

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/apply"
)

// TestBuild checks what the page says of each operation of the example
// plan: action, module, deposed key, create_before_destroy and reasons.
func TestBuild(t *testing.T) {
	d := Build(exampleGraph(t), nil)
	byLabel := map[string]Node{}
	for i, n := range d.Nodes {
		if n.ID != i {
			t.Fatalf("node %d has ID %d", i, n.ID)
		}
		byLabel[n.Label] = n
	}
	tests := []struct {
		label string
		want  Node
	}{
		{"module.app.terraform_data.image (create)", Node{Address: "module.app.terraform_data.image", Module: "module.app", Action: ActionReplaceCreate,
			CBD: true, CBDInherited: true, CBDInheritedFrom: "module.app.terraform_data.launch_template"}},
		{"module.app.terraform_data.launch_template (destroy deposed)", Node{Module: "module.app", Action: ActionReplaceDelete, CBD: true}},
		{"module.app.terraform_data.cache (destroy)", Node{Address: "module.app.terraform_data.cache", Module: "module.app", Action: ActionReplaceDelete}},
		{"module.network.terraform_data.subnet[\"d\"] (create)", Node{Address: "module.network.terraform_data.subnet[\"d\"]", Module: "module.network", Action: ActionCreate}},
		{"module.network.terraform_data.route_table (update)", Node{Address: "module.network.terraform_data.route_table", Module: "module.network", Action: ActionUpdate}},
		{"terraform_data.legacy_dns (destroy)", Node{Address: "terraform_data.legacy_dns", Action: ActionDelete}},
		{"data.terraform_data.release (read)", Node{Address: "data.terraform_data.release", Action: ActionRead}},
		{"all module.app.terraform_data.server (create)", Node{Address: "module.app.terraform_data.server", Module: "module.app", Action: ActionJunction}},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			got, ok := byLabel[tt.label]
			if !ok {
				t.Fatalf("no node %q", tt.label)
			}
			want := tt.want
			want.ID, want.Label, want.Reasons = got.ID, tt.label, []string{}
			if want.Address == "" {
				// A deposed object's address carries the key Order chose.
				want.Address, want.Deposed = got.Address, got.Deposed
				if got.Deposed == "" {
					t.Errorf("a create_before_destroy delete has no deposed key")
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	ops := 0
	for _, n := range d.Nodes {
		if n.IsOperation() {
			ops++
		}
	}
	// 15 changes, 6 of them replacements of two operations each.
	if ops != 21 {
		t.Errorf("%d operations, want 21", ops)
	}
}

// TestBuildEdges checks that every edge of the operation graph is in the
// document, between the right nodes.
func TestBuildEdges(t *testing.T) {
	g := exampleGraph(t)
	d := Build(g, nil)
	id := map[string]int{}
	for _, n := range d.Nodes {
		id[n.Label] = n.ID
	}
	want := map[Edge]bool{}
	for _, e := range g.G.Edges() {
		want[Edge{From: id[g.Label(e.From)], To: id[g.Label(e.To)]}] = true
	}
	got := map[Edge]bool{}
	for _, e := range d.Edges {
		got[Edge{From: e.From, To: e.To}] = true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("edges (-want +got)\n%s", diff)
	}
}

// TestNodeOf checks that every operation finds its own node.
func TestNodeOf(t *testing.T) {
	g := exampleGraph(t)
	d := Build(g, nil)
	for _, op := range g.G.Nodes() {
		id, ok := d.NodeOf(op)
		if !ok || d.Nodes[id].Label != g.Label(op) {
			t.Errorf("NodeOf(%s) = %d, %v", g.Label(op), id, ok)
		}
	}
	if _, ok := d.NodeOf(apply.Op{}); ok {
		t.Error("NodeOf found an operation that is not in the graph")
	}
}

// TestBuildRulesAndReasons: given the plan and a graph built with its
// rules, every edge of the document names its rule and the actions their
// reasons, inherited create_before_destroy with its path.
func TestBuildRulesAndReasons(t *testing.T) {
	d := exampleDocument(t)
	for _, e := range d.Edges {
		if e.Rule == "" {
			t.Errorf("edge %s → %s has no rule", d.Nodes[e.From].Label, d.Nodes[e.To].Label)
		}
	}
	byLabel := map[string]Node{}
	for _, n := range d.Nodes {
		byLabel[n.Label] = n
	}
	for label, want := range map[string]string{
		"module.network.terraform_data.subnet[\"d\"] (create)": "there is no object in state",
		"module.app.terraform_data.image (create)":             "create_before_destroy is inherited from module.app.terraform_data.launch_template (module.app.terraform_data.launch_template → module.app.terraform_data.image)",
		"terraform_data.legacy_dns (destroy)":                  "the resource is no longer in the configuration",
	} {
		n, ok := byLabel[label]
		if !ok {
			t.Errorf("no node %q", label)
			continue
		}
		if !slices.Contains(n.Reasons, want) {
			t.Errorf("%s: reasons %q lack %q", label, n.Reasons, want)
		}
	}
}
