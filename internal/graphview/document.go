package graphview

import (
	"cmp"
	"slices"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/plan"
)

// Action is what a node of the page does, which decides its colour.
type Action string

// The actions a node may have.
const (
	// ActionCreate creates an object.
	ActionCreate Action = "create"
	// ActionUpdate updates an object in place.
	ActionUpdate Action = "update"
	// ActionDelete deletes an object.
	ActionDelete Action = "delete"
	// ActionReplaceCreate is the create half of a replacement.
	ActionReplaceCreate Action = "replace-create"
	// ActionReplaceDelete is the delete half of a replacement.
	ActionReplaceDelete Action = "replace-delete"
	// ActionRead reads a data source.
	ActionRead Action = "read"
	// ActionNoOp changes nothing: a resource of the resource graph.
	ActionNoOp Action = "no-op"
	// ActionJunction is a junction of the operation graph that stands for
	// every operation of one kind of a resource; it carries out nothing.
	ActionJunction Action = "junction"
)

// Kind says what the nodes of a Document are.
type Kind string

const (
	// KindOperations is a document of an operation graph (apply.Graph).
	KindOperations Kind = "operations"
	// KindResources is a document of the resource graph.
	KindResources Kind = "resources"
)

// Document is the input of the graph page: every node and edge with
// what the page shows of them. It is encoded as JSON into the page.
type Document struct {
	Title string `json:"title"`
	Kind  Kind   `json:"kind"`
	// Nodes are sorted by module, then address (instance keys in their
	// order: [2] before [10]); a node's ID is its index.
	Nodes []Node `json:"nodes"`
	// Edges are sorted by From, then To.
	Edges []Edge `json:"edges"`

	// ops maps each operation of the graph Build read to its node's ID;
	// nil for a resource graph.
	ops map[apply.Op]int
}

// NodeOf returns the ID of the node of operation op, for a document Build
// made; ok is false when op is not in the graph.
func (d *Document) NodeOf(op apply.Op) (id int, ok bool) {
	id, ok = d.ops[op]
	return id, ok
}

// Node is one operation (or junction, or resource) of the graph.
type Node struct {
	ID int `json:"id"`
	// Address is the object's address, with its deposed key if any.
	Address string `json:"address"`
	// Label is how the order of operations names the node:
	// "terraform_data.a (destroy deposed)".
	Label string `json:"label"`
	// Module is the module instance ("" for the root module).
	Module string `json:"module"`
	Action Action `json:"action"`
	// Deposed is the deposed key of the object a delete removes: an
	// existing deposed object's, or the key the old object of a
	// create_before_destroy replacement will be deposed under.
	Deposed string `json:"deposed,omitempty"`
	// CBD reports an effective create_before_destroy, own or inherited.
	CBD bool `json:"cbd"`
	// CBDInherited reports that CBD comes from CBDInheritedFrom, a resource
	// that depends on this one and sets create_before_destroy.
	CBDInherited     bool   `json:"cbdInherited"`
	CBDInheritedFrom string `json:"cbdInheritedFrom,omitempty"`
	// Reasons say why the plan chose the action; empty when it needs none.
	Reasons []string `json:"reasons"`
	// Protected is where the lifecycle.prevent_destroy recorded with the
	// object (rig.hcl's record_prevent_destroy) was set ("main.tf:12");
	// Refused, on a delete, where the protection that refuses it was set.
	Protected string `json:"protected,omitempty"`
	Refused   string `json:"refused,omitempty"`
}

// Edge says that From must finish before To starts (in the resource
// graph: To depends on From).
type Edge struct {
	From int `json:"from"`
	To   int `json:"to"`
	// Rule names the ordering rule that made the edge; "" when unknown.
	Rule string `json:"rule"`
}

// IsOperation reports whether the node is an operation (or a resource of
// the resource graph) rather than a junction.
func (n Node) IsOperation() bool { return n.Action != ActionJunction }

// Build returns the document of the operation graph g: with the plan p
// it orders, each action's reasons (plan.ReasonIndex); with a graph built
// with its rules (apply.OrderOptions.Rules), each edge's rule. It reads g
// and p and keeps nothing of them.
func Build(g *apply.Graph, p *plan.Plan) *Document {
	ops := g.G.Nodes()
	nodes := make([]Node, len(ops))
	var reasons *plan.ReasonIndex
	if p != nil {
		reasons = plan.NewReasonIndex(p)
	}
	for i, op := range ops {
		nodes[i] = opNode(g, op, reasons)
	}
	d := &Document{Title: "Operations", Kind: KindOperations}
	d.ops = assemble(d, nodes, ops, g.G.EdgePositions(), func(a, b apply.Op) int {
		return cmp.Or(addrs.ObjectAddr{Instance: a.Addr, Deposed: a.Deposed}.Compare(addrs.ObjectAddr{Instance: b.Addr, Deposed: b.Deposed}),
			cmp.Compare(a.Barrier, b.Barrier), cmp.Compare(a.Kind, b.Kind))
	})
	if g.RecordsRules() {
		at := make(map[[2]int]int, len(d.Edges))
		for i, e := range d.Edges {
			at[[2]int{e.From, e.To}] = i
		}
		for _, e := range g.G.Edges() {
			if i, ok := at[[2]int{d.ops[e.From], d.ops[e.To]}]; ok {
				d.Edges[i].Rule = g.DescribeEdge(e.From, e.To)
			}
		}
	}
	return d
}

func opNode(g *apply.Graph, op apply.Op, reasons *plan.ReasonIndex) Node {
	n := Node{Label: g.Label(op), Module: op.Addr.Module.String(), Reasons: []string{}}
	if op.IsBarrier() {
		n.Address = op.Addr.ContainingResource().String()
		n.Action = ActionJunction
		return n
	}
	n.Address = addrs.ObjectAddr{Instance: op.Addr, Deposed: op.Deposed}.String()
	n.Deposed = string(op.Deposed)
	c := g.Changes[op]
	if c == nil {
		n.Action = ActionNoOp
		return n
	}
	n.Action = action(c.Action, op.Kind)
	n.CBD = c.CreateBeforeDestroy
	n.Protected = c.PreventDestroy
	if op.Kind == apply.OpDelete {
		n.Refused = c.RefusedBy
	}
	if c.CBDInheritedFrom != (addrs.AbsResource{}) {
		n.CBDInherited = true
		n.CBDInheritedFrom = c.CBDInheritedFrom.String()
	}
	if reasons == nil {
		return n
	}
	for _, r := range reasons.Reasons(c) {
		n.Reasons = append(n.Reasons, r.String())
	}
	return n
}

// action maps a planned action and the half of it an operation carries out
// to the page's action.
func action(a plan.Action, kind apply.OpKind) Action {
	switch a {
	case plan.Create, plan.ForgetThenCreate:
		// A forget-then-create's only operation is its create.
		return ActionCreate
	case plan.Update:
		return ActionUpdate
	case plan.Read:
		return ActionRead
	case plan.Delete:
		return ActionDelete
	case plan.DeleteThenCreate, plan.CreateThenDelete:
		if kind == apply.OpDelete {
			return ActionReplaceDelete
		}
		return ActionReplaceCreate
	}
	return ActionNoOp
}

// FromResources returns the document of the resource graph g (an edge
// from a resource to one that depends on it).
func FromResources(g *dag.Graph[addrs.ConfigResource]) *Document {
	keys := g.Nodes()
	nodes := make([]Node, len(keys))
	for i, r := range keys {
		nodes[i] = Node{Address: r.String(), Label: r.String(), Module: r.Module.String(), Action: ActionNoOp, Reasons: []string{}}
	}
	d := &Document{Title: "Resources", Kind: KindResources}
	assemble(d, nodes, keys, g.EdgePositions(), addrs.ConfigResource.Compare)
	return d
}

// assemble sorts nodes (built from keys, index for index) by module, then
// key (so instance keys sort as numbers), then label, numbers them into d,
// and adds the edges between them (given as positions in keys), sorted by
// their ends' numbers. It returns each key's node ID.
func assemble[K comparable](d *Document, nodes []Node, keys []K, edges [][2]int, compare func(a, b K) int) map[K]int {
	idx := make([]int, len(nodes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(nodes[a].Module, nodes[b].Module), compare(keys[a], keys[b]), cmp.Compare(nodes[a].Label, nodes[b].Label))
	})
	id := make(map[K]int, len(keys))
	newIDs := make([]int, len(nodes))
	d.Nodes = make([]Node, len(nodes))
	for newID, old := range idx {
		n := nodes[old]
		n.ID = newID
		d.Nodes[newID] = n
		id[keys[old]] = newID
		newIDs[old] = newID
	}
	// Edges grouped by From with a counting sort, then each group by To.
	start := make([]int, len(nodes)+1)
	for _, e := range edges {
		start[newIDs[e[0]]+1]++
	}
	for i := range len(nodes) {
		start[i+1] += start[i]
	}
	d.Edges = make([]Edge, len(edges))
	next := slices.Clone(start[:len(nodes)])
	for _, e := range edges {
		from := newIDs[e[0]]
		d.Edges[next[from]] = Edge{From: from, To: newIDs[e[1]]}
		next[from]++
	}
	for i := range len(nodes) {
		slices.SortFunc(d.Edges[start[i]:start[i+1]], func(a, b Edge) int { return cmp.Compare(a.To, b.To) })
	}
	return id
}
