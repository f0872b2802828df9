package graphview

import (
	"cmp"
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/plan"
)

// VertexKind says what a Vertex stands for.
type VertexKind uint8

const (
	// VertexOperation is an operation (or junction) of the operation graph.
	VertexOperation VertexKind = iota
	// VertexAction is an action invocation.
	VertexAction
	// VertexOpen opens an ephemeral resource.
	VertexOpen
	// VertexClose closes an ephemeral resource.
	VertexClose
)

// Vertex is a node of an operation graph drawn with what runs beside its
// operations (Extend). It is comparable: a map and dag.Graph key.
type Vertex struct {
	Kind VertexKind
	// Op is the operation of a VertexOperation, and the operation a
	// triggered action runs within; zero otherwise.
	Op apply.Op
	// Invocation is a VertexAction's invocation.
	Invocation *plan.ActionInvocation
	// Ephemeral is the ephemeral resource a VertexOpen or VertexClose
	// opens or closes.
	Ephemeral addrs.ConfigResource
}

// Extras is what Extend draws beside the operations of a graph.
type Extras struct {
	// Actions are the plan's action invocations: those a change triggers
	// are drawn before or after their operation, those -invoke names after
	// every operation, in the order they run.
	Actions []*plan.ActionInvocation
	// Ephemerals lists, per operation, the ephemeral resources it uses
	// (apply.EphemeralUses): each is drawn opened before the first of
	// them and closed after the last.
	Ephemerals map[apply.Op][]addrs.ConfigResource
}

// Empty reports whether x draws nothing beside the operations.
func (x Extras) Empty() bool { return len(x.Actions) == 0 && len(x.Ephemerals) == 0 }

// Extend returns the operation graph g with a vertex for each action x
// names and for the opening and closing of each ephemeral resource, and
// the edges that order them as an apply runs them: a before_* action after
// everything its operation waits for and before the operation; an after_*
// action once the operation is done and before anything that waits for
// it; the actions of one operation and event one after another; the
// actions -invoke names after every operation; an ephemeral resource
// opened before each operation that uses it and closed after each. The
// operations come first, in g's order, so that the DOT of a graph with no
// extras is g's. It reads g and keeps nothing of it.
func Extend(g *apply.Graph, x Extras) *dag.Graph[Vertex] {
	ops := g.G.Nodes()
	out := dag.NewSized[Vertex](len(ops))
	for _, op := range ops {
		out.Add(opVertex(op))
	}
	for _, e := range g.G.Edges() {
		out.Connect(opVertex(e.From), opVertex(e.To))
	}
	// The invocations by the resource instance that fires them.
	byResource := map[addrs.AbsResourceInstance][]*plan.ActionInvocation{}
	for _, ai := range x.Actions {
		if ai.Trigger != nil {
			byResource[ai.Trigger.Resource] = append(byResource[ai.Trigger.Resource], ai)
		}
	}
	for _, op := range ops {
		actions := byResource[op.Addr]
		if op.IsBarrier() || len(actions) == 0 {
			continue
		}
		if before := actionVertices(g, op, true, actions); len(before) > 0 {
			for _, p := range g.G.Predecessors(op) {
				out.Connect(opVertex(p), before[0])
			}
			chain(out, before)
			out.Connect(before[len(before)-1], opVertex(op))
		}
		if after := actionVertices(g, op, false, actions); len(after) > 0 {
			out.Connect(opVertex(op), after[0])
			chain(out, after)
			for _, s := range g.G.Successors(op) {
				out.Connect(after[len(after)-1], opVertex(s))
			}
		}
	}
	var invoked []Vertex
	for _, ai := range x.Actions {
		if ai.Trigger == nil {
			invoked = append(invoked, Vertex{Kind: VertexAction, Invocation: ai})
		}
	}
	if len(invoked) > 0 {
		chain(out, invoked)
		for _, op := range ops {
			if len(g.G.Successors(op)) == 0 {
				out.Connect(opVertex(op), invoked[0])
			}
		}
	}
	for _, op := range ops {
		for _, r := range x.Ephemerals[op] {
			out.Connect(Vertex{Kind: VertexOpen, Ephemeral: r}, opVertex(op))
			out.Connect(opVertex(op), Vertex{Kind: VertexClose, Ephemeral: r})
		}
	}
	return out
}

// actionVertices returns the vertices of the actions op runs before (or
// after) it, in order, among actions.
func actionVertices(g *apply.Graph, op apply.Op, before bool, actions []*plan.ActionInvocation) []Vertex {
	var out []Vertex
	for _, ai := range apply.TriggeredActions(&plan.Plan{ActionInvocations: actions}, op, g.Changes[op], before) {
		out = append(out, Vertex{Kind: VertexAction, Op: op, Invocation: ai})
	}
	return out
}

// chain connects vs one after another.
func chain(g *dag.Graph[Vertex], vs []Vertex) {
	for i := range vs {
		g.Add(vs[i])
		if i > 0 {
			g.Connect(vs[i-1], vs[i])
		}
	}
}

func opVertex(op apply.Op) Vertex { return Vertex{Kind: VertexOperation, Op: op} }

// VertexLabel names v as the order of operations and the plan name what
// it stands for: "create test_thing.a", "action.x.y (before_create of
// test_thing.a)", "action.x.y (-invoke)", "open ephemeral.x.y",
// "close ephemeral.x.y".
func VertexLabel(g *apply.Graph, v Vertex) string {
	switch v.Kind {
	case VertexAction:
		if t := v.Invocation.Trigger; t != nil {
			return fmt.Sprintf("%s (%s of %s)", v.Invocation.Addr, t.Event, t.Resource)
		}
		return v.Invocation.Addr.String() + " (-invoke)"
	case VertexOpen:
		return "open " + v.Ephemeral.String()
	case VertexClose:
		return "close " + v.Ephemeral.String()
	}
	return g.Label(v.Op)
}

// vertexNode returns the page's node of v.
func vertexNode(g *apply.Graph, v Vertex, reasons *plan.ReasonIndex) Node {
	switch v.Kind {
	case VertexAction:
		ai := v.Invocation
		n := Node{Address: ai.Addr.String(), Label: VertexLabel(g, v), Module: ai.Addr.Module.String(), Action: ActionInvoke, Reasons: []string{}}
		if t := ai.Trigger; t != nil {
			when := "after its operation is done, before anything that waits for it starts"
			if ai.Before() {
				when = "after everything its operation waits for, before the operation starts"
			}
			n.Reasons = append(n.Reasons, fmt.Sprintf("action_trigger of %s: %s, on_failure = %s; runs %s", t.Resource, t.Event, plan.OnFailureKeyword(t.OnFailure), when))
		} else {
			n.Reasons = append(n.Reasons, "-invoke names it: runs once every operation is done")
		}
		return n
	case VertexOpen, VertexClose:
		n := Node{Address: v.Ephemeral.String(), Label: VertexLabel(g, v), Module: v.Ephemeral.Module.String(), Action: ActionOpenEphemeral, Reasons: []string{}}
		n.Reasons = append(n.Reasons, "opened before the first operation that uses it")
		if v.Kind == VertexClose {
			n.Action = ActionCloseEphemeral
			n.Reasons[0] = "closed once the last operation that uses it is done"
		}
		return n
	}
	return opNode(g, v.Op, reasons)
}

// compareVertices orders the vertices of one module: by the object they
// concern (an action by its operation's, or its own address when
// invoked; an ephemeral resource by its address), then kind.
func compareVertices(a, b Vertex) int {
	return cmp.Or(cmp.Compare(vertexAddr(a), vertexAddr(b)), cmp.Compare(a.Op.Barrier, b.Op.Barrier),
		cmp.Compare(a.Op.Kind, b.Op.Kind), cmp.Compare(a.Kind, b.Kind))
}

func vertexAddr(v Vertex) string {
	switch {
	case v.Kind == VertexOperation || v.Kind == VertexAction && v.Invocation.Trigger != nil:
		return addrs.ObjectAddr{Instance: v.Op.Addr, Deposed: v.Op.Deposed}.String()
	case v.Kind == VertexAction:
		return v.Invocation.Addr.String()
	}
	return v.Ephemeral.String()
}

// BuildWith is Build with what x draws beside the operations (Extend):
// action invocations and ephemeral resources' opening and closing are
// nodes of their own, with the edges that order them; each edge of g
// keeps its rule, and each new one says what orders it.
func BuildWith(g *apply.Graph, p *plan.Plan, x Extras) *Document {
	if x.Empty() {
		return Build(g, p)
	}
	ext := Extend(g, x)
	keys := ext.Nodes()
	var reasons *plan.ReasonIndex
	if p != nil {
		reasons = plan.NewReasonIndex(p)
	}
	nodes := make([]Node, len(keys))
	for i, v := range keys {
		nodes[i] = vertexNode(g, v, reasons)
	}
	d := &Document{Title: "Operations", Kind: KindOperations}
	ids := assemble(d, nodes, keys, ext.EdgePositions(), compareVertices)
	d.ops = make(map[apply.Op]int, len(ids))
	for v, id := range ids {
		if v.Kind == VertexOperation {
			d.ops[v.Op] = id
		}
	}
	at := make(map[[2]int]int, len(d.Edges))
	for i, e := range d.Edges {
		at[[2]int{e.From, e.To}] = i
	}
	for _, e := range ext.Edges() {
		i, ok := at[[2]int{ids[e.From], ids[e.To]}]
		if !ok {
			continue
		}
		switch {
		case e.From.Kind == VertexOperation && e.To.Kind == VertexOperation:
			if g.RecordsRules() {
				d.Edges[i].Rule = g.DescribeEdge(e.From.Op, e.To.Op)
			}
		default:
			d.Edges[i].Rule = extraRule(g, e.From, e.To)
		}
	}
	return d
}

// extraRule says why an edge to or from an extra vertex orders its ends.
func extraRule(g *apply.Graph, from, to Vertex) string {
	switch {
	case to.Kind == VertexOpen || from.Kind == VertexOpen:
		return fmt.Sprintf("%s is opened before %s, which uses it", from.Ephemeral, VertexLabel(g, to))
	case to.Kind == VertexClose:
		return fmt.Sprintf("%s is closed once %s, which uses it, is done", to.Ephemeral, VertexLabel(g, from))
	case from.Kind == VertexAction && to.Kind == VertexAction:
		return fmt.Sprintf("%s runs after %s", VertexLabel(g, to), VertexLabel(g, from))
	case to.Kind == VertexAction && to.Invocation.Trigger == nil:
		return fmt.Sprintf("%s runs once every operation is done", VertexLabel(g, to))
	case to.Kind == VertexAction && to.Invocation.Before():
		return fmt.Sprintf("%s runs after what its operation waits for", VertexLabel(g, to))
	case to.Kind == VertexAction:
		return fmt.Sprintf("%s runs once its operation is done", VertexLabel(g, to))
	case from.Invocation.Before():
		return fmt.Sprintf("%s runs before %s starts", VertexLabel(g, from), VertexLabel(g, to))
	}
	return fmt.Sprintf("%s runs before what waits for its operation starts", VertexLabel(g, from))
}

// VertexDOTAttrs gives the DOT node attributes that tell the extra
// vertices apart: an action is drawn as a "cds", the opening and closing
// of an ephemeral resource as a "house" and an "invhouse"; an operation
// keeps DOT's default.
func VertexDOTAttrs(v Vertex) map[string]string {
	switch v.Kind {
	case VertexAction:
		return map[string]string{"shape": "cds", "color": ActionInvoke.Color()}
	case VertexOpen:
		return map[string]string{"shape": "house", "color": ActionOpenEphemeral.Color()}
	case VertexClose:
		return map[string]string{"shape": "invhouse", "color": ActionCloseEphemeral.Color()}
	}
	return nil
}
