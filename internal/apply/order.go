package apply

import (
	"fmt"
	"slices"
	"sync"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
)

// OpKind says which half of an object's change an operation carries out.
type OpKind uint8

const (
	// OpCreate creates, updates or reads an object: a plan's Create, Update,
	// Read, or the create half of a replacement; or, for a NoOp, checks the
	// conditions of an unchanged object that the plan could not evaluate
	// (its verb is "check").
	OpCreate OpKind = iota + 1
	// OpDelete deletes an object: a plan's Delete, or the delete half of a replacement.
	OpDelete
	// OpBarrierBefore and OpBarrierAfter are no-op nodes that stand for "before
	// every" and "after every" operation of one kind of one resource (their
	// Addr names the resource, Deposed says which kind). They carry out
	// nothing and are not shown as operations.
	OpBarrierBefore
	OpBarrierAfter
)

// BarrierKind says which operations of one resource a barrier stands
// for; it is zero for every operation that is not a barrier.
type BarrierKind uint8

const (
	// BarrierCreate stands for the resource's creates and updates.
	BarrierCreate BarrierKind = iota + 1
	// BarrierDelete stands for its deletes ordered delete-first.
	BarrierDelete
	// BarrierDeleteCBD stands for its create_before_destroy deletes.
	BarrierDeleteCBD
)

// Deletes reports whether the barrier stands for deletes.
func (b BarrierKind) Deletes() bool { return b == BarrierDelete || b == BarrierDeleteCBD }

// String returns "create" or "destroy", as the order of operations shows it.
func (k OpKind) String() string {
	switch k {
	case OpDelete:
		return "destroy"
	case OpBarrierBefore:
		return "before"
	case OpBarrierAfter:
		return "after"
	}
	return "create"
}

// IsBarrier reports whether op is a barrier node rather than an operation.
func (o Op) IsBarrier() bool { return o.Kind == OpBarrierBefore || o.Kind == OpBarrierAfter }

// resourceSets are the operations of one resource by kind: its creates and
// updates, its other deletes, and its create-before-destroy deletes; nil
// when it has none of a kind.
type resourceSets struct {
	create, delete, deleteCBD *opSet
	// stamp, createDeps and createDepsKnown are impliedEdges' (used when
	// OrderOptions.OmitImplied is set).
	stamp           uint32
	createDeps      []*resourceSets
	createDepsKnown bool
}

// opSet is the operations of one kind of one resource (see resourceSets),
// with the barriers that stand for them, made when first needed.
type opSet struct {
	g             *Graph
	resource      addrs.AbsResource
	kind          OpKind
	ops           []Op
	first, last   Op
	hasFirst, has bool
	// lastNode is after()'s node in g.G, once afterNode has looked it up.
	lastNode    dag.Node
	hasLastNode bool
}

// afterNode is after() as a node of the graph.
func (s *opSet) afterNode() dag.Node {
	if !s.hasLastNode {
		s.lastNode, s.hasLastNode = s.g.G.Node(s.after()), true
	}
	return s.lastNode
}

// barrierKind tells the barriers of different sets of one resource apart.
func (s *opSet) barrierKind() BarrierKind {
	if s.kind == OpDelete {
		if s.ops != nil && s.g.isCBD(s.ops[0]) {
			return BarrierDeleteCBD
		}
		return BarrierDelete
	}
	return BarrierCreate
}

// before returns the node every edge into the set goes to: the one
// operation, or a barrier preceding all of them.
func (s *opSet) before() Op {
	if len(s.ops) == 1 {
		return s.ops[0]
	}
	if !s.hasFirst {
		s.first = Op{Addr: s.resource.Instance(addrs.NoKey), Barrier: s.barrierKind(), Kind: OpBarrierBefore}
		s.g.G.Add(s.first)
		for _, op := range s.ops {
			s.g.connect(s.first, op, RuleBarrier)
		}
		s.hasFirst = true
	}
	return s.first
}

// after returns the node every edge out of the set comes from: the one
// operation, or a barrier following all of them.
func (s *opSet) after() Op {
	if len(s.ops) == 1 {
		return s.ops[0]
	}
	if !s.has {
		s.last = Op{Addr: s.resource.Instance(addrs.NoKey), Barrier: s.barrierKind(), Kind: OpBarrierAfter}
		s.g.G.Add(s.last)
		for _, op := range s.ops {
			s.g.connect(op, s.last, RuleBarrier)
		}
		s.has = true
	}
	return s.last
}

// Op names one operation of the apply graph. For the delete half of a
// create_before_destroy replacement, Deposed is the key the old object will
// have been deposed under by the time the delete runs. A barrier's Addr
// names its resource (with no instance key) and Barrier says which of the
// resource's operations it stands for.
type Op struct {
	Addr    addrs.AbsResourceInstance
	Deposed addrs.DeposedKey
	Kind    OpKind
	Barrier BarrierKind
}

// String returns the operation as users read it: "terraform_data.a (destroy)".
func (o Op) String() string {
	obj := addrs.ObjectAddr{Instance: o.Addr, Deposed: o.Deposed}
	return obj.String() + " (" + o.Kind.String() + ")"
}

// Graph is the operation graph of a plan: an edge X→Y means X must finish before Y starts.
type Graph struct {
	G *dag.Graph[Op]
	// Changes maps each operation to the planned change it carries out.
	Changes map[Op]*plan.ResourceInstanceChange
	// DeposeKeys holds, for each create_before_destroy replacement, the key
	// the current object is deposed under before its successor is created.
	DeposeKeys map[addrs.AbsResourceInstance]addrs.DeposedKey
	// rules holds the rule of every edge when the graph was built with
	// OrderOptions.Rules; nil otherwise.
	rules map[edge]Rule
	// config is OrderOptions.Config.
	config *config.Module
	// actions are the plan's action invocations (ActionsOf).
	actions []*plan.ActionInvocation
}

// edge is an edge of the operation graph, as the key of Graph.rules.
type edge struct{ from, to Op }

// OrderOptions tunes OrderWith.
type OrderOptions struct {
	// Rules records the rule of every edge, for EdgeRule and DescribeEdge.
	// Off in Order: the plan and apply commands do not need them, and
	// recording costs a map entry per edge.
	Rules bool
	// Config is the configuration the plan was made from; when set, the
	// diagnostic of a cycle points at the create_before_destroy settings
	// involved. It may be nil.
	Config *config.Module
	// DeposedKeys chooses the key each create_before_destroy replacement
	// deposes its current object under; nil means RandomDeposedKeys.
	DeposedKeys DeposedKeySource
	// OmitImplied leaves out of the graph the edges into a create that
	// other edges imply (see impliedEdges): the same order with fewer
	// edges, for the apply. Ignored with Rules, which describe every edge.
	OmitImplied bool
}

// DeposedKeySource returns a key under which the current object of the
// instance addr may be deposed: one none of the deposed objects of inst,
// its recorded instance (nil when the state has none), has.
type DeposedKeySource func(addr addrs.AbsResourceInstance, inst *state.Instance) addrs.DeposedKey

// RandomDeposedKeys chooses random keys, as OpenTofu does: eight hex digits.
func RandomDeposedKeys(_ addrs.AbsResourceInstance, inst *state.Instance) addrs.DeposedKey {
	return state.NewDeposedKey(inst)
}

// SequentialDeposedKeys returns a source of the keys 00000001, 00000002, …
// in the order they are asked for, skipping those inst already uses: for
// runs that must be reproducible.
func SequentialDeposedKeys() DeposedKeySource {
	var mu sync.Mutex
	n := 0
	return func(_ addrs.AbsResourceInstance, inst *state.Instance) addrs.DeposedKey {
		mu.Lock()
		defer mu.Unlock()
		for {
			n++
			k := addrs.DeposedKey(fmt.Sprintf("%08x", n))
			if inst == nil || inst.Deposed[k] == nil {
				return k
			}
		}
	}
}

// Order builds the operation graph of p following every ordering rule of
// docs/design.md §4: create/update in dependency order, destroy in reverse,
// delete-first replacement, the edges between updates and deletes of
// dependencies, and create_before_destroy's inversion of the edges into a
// delete. It fails with a diagnostic naming the cycle when the rules
// cannot all hold.
func Order(p *plan.Plan) (*Graph, diag.Diagnostics) {
	return OrderWith(p, OrderOptions{})
}

// OrderWith is Order with options. When the operations cannot be ordered,
// the graph is built again with its rules recorded, so that the cycle's
// diagnostic names the rule of each of its edges.
func OrderWith(p *plan.Plan, opts OrderOptions) (*Graph, diag.Diagnostics) {
	if opts.DeposedKeys == nil {
		opts.DeposedKeys = RandomDeposedKeys
	}
	g := order(p, opts)
	g.actions = p.ActionInvocations
	cycles := g.G.Cycles()
	if len(cycles) == 0 {
		return g, nil
	}
	if g.rules == nil {
		opts.Rules = true
		kept := g.DeposeKeys
		opts.DeposedKeys = func(addr addrs.AbsResourceInstance, _ *state.Instance) addrs.DeposedKey { return kept[addr] }
		g = order(p, opts)
		g.actions = p.ActionInvocations
		cycles = g.G.Cycles()
	}
	var ds diag.Diagnostics
	for _, c := range cycles {
		ds = ds.Append(g.cycleDiag(c))
	}
	return g, ds
}

// order builds the operation graph, deposing objects under the keys
// opts.DeposedKeys gives.
func order(p *plan.Plan, opts OrderOptions) *Graph {
	// A replacement is two operations; most changes are one.
	n := len(p.Changes) + len(p.Changes)/8
	g := &Graph{G: dag.NewSized[Op](n), Changes: make(map[Op]*plan.ResourceInstanceChange, n), DeposeKeys: map[addrs.AbsResourceInstance]addrs.DeposedKey{}, config: opts.Config}
	if opts.Rules {
		g.rules = make(map[edge]Rule, 2*n)
	}
	// Sized for the changes that act: growing maps of thousands of
	// entries copied them over and over.
	acting := actingChanges(p.Changes)
	creates := make(map[addrs.AbsResource][]Op, acting)
	deletes := map[addrs.AbsResource][]Op{}
	// current holds each instance's create or update; earlier holds the
	// deletes of objects deposed by an earlier run.
	current := make(map[addrs.AbsResourceInstance]Op, acting)
	var earlier []Op
	prior := p.PriorState
	if prior == nil {
		prior = state.New()
	}

	for _, c := range p.Changes {
		// Dependencies name resources without module instance keys.
		ra := c.Addr.ContainingResource().Unkeyed()
		switch c.Action {
		case plan.NoOp:
			// An unchanged object whose conditions the plan could not
			// evaluate has them checked once what they refer to is
			// applied, before its dependents run, as OpenTofu does.
			if checkAtApply(p, c) {
				op := Op{Addr: c.Addr, Kind: OpCreate}
				g.add(op, c)
				creates[ra] = append(creates[ra], op)
				current[c.Addr] = op
			}
			continue
		case plan.Forget:
			// A forgotten object only leaves the state (see Apply).
			continue
		case plan.Create, plan.Update, plan.Read, plan.ForgetThenCreate:
			// A forget-then-create's old object leaves the state before
			// the walk (see Apply): only its create is an operation.
			op := Op{Addr: c.Addr, Kind: OpCreate}
			g.add(op, c)
			creates[ra] = append(creates[ra], op)
			current[c.Addr] = op
		case plan.Delete:
			op := Op{Addr: c.Addr, Deposed: c.Deposed, Kind: OpDelete}
			g.add(op, c)
			deletes[ra] = append(deletes[ra], op)
			if c.Deposed != addrs.NotDeposed {
				earlier = append(earlier, op)
			}
		case plan.DeleteThenCreate, plan.CreateThenDelete:
			cr := Op{Addr: c.Addr, Kind: OpCreate}
			del := Op{Addr: c.Addr, Kind: OpDelete}
			if c.Action == plan.CreateThenDelete {
				dk := opts.DeposedKeys(c.Addr, prior.Instance(c.Addr))
				g.DeposeKeys[c.Addr] = dk
				del.Deposed = dk
			}
			g.add(cr, c)
			g.add(del, c)
			current[c.Addr] = cr
			creates[ra] = append(creates[ra], cr)
			deletes[ra] = append(deletes[ra], del)
			if c.Action == plan.CreateThenDelete {
				g.connect(cr, del, RuleReplaceCreateFirst)
			} else {
				g.connect(del, cr, RuleReplaceDeleteFirst)
			}
		}
	}
	connectBatches(g, p.Changes)
	// Rule 5: an object deposed by an earlier run goes once its instance's
	// new object exists (or its current one is updated), whatever else
	// happens to the instance, as the deposed object of a create-first
	// replacement does.
	for _, del := range earlier {
		if cr, ok := current[del.Addr]; ok {
			g.connect(cr, del, RuleDeposedDeleteLast)
		}
	}

	// Dependencies are between resources, so every operation of a dependent
	// waits for all the creates (or deletes) of a dependency. Where a set
	// has more than one operation, its edges go through a barrier node, so
	// two count resources of W instances each are joined by 2W edges, not W².
	// Each resource's sets are found with one lookup per dependency.
	sets := map[addrs.AbsResource]*resourceSets{}
	setsOf := func(ra addrs.AbsResource) *resourceSets {
		rs := sets[ra]
		if rs == nil {
			rs = &resourceSets{}
			sets[ra] = rs
		}
		return rs
	}
	set := func(ra addrs.AbsResource, s **opSet, kind OpKind) *opSet {
		if *s == nil {
			*s = &opSet{g: g, resource: ra, kind: kind}
		}
		return *s
	}
	for ra, ops := range creates {
		rs := setsOf(ra)
		set(ra, &rs.create, OpCreate).ops = ops
	}
	for ra, ops := range deletes {
		rs := setsOf(ra)
		for _, op := range ops {
			dst := &rs.delete
			if g.isCBD(op) {
				dst = &rs.deleteCBD
			}
			s := set(ra, dst, OpDelete)
			s.ops = append(s.ops, op)
		}
	}
	// The edges into an operation are added at once, by node: an object
	// records hundreds of dependencies in a graph of distinct resource
	// blocks.
	var preds predecessors
	var im *impliedEdges
	if opts.OmitImplied && !opts.Rules {
		im = newImpliedEdges(g, prior, sets)
	}
	for _, op := range g.G.Nodes() {
		c := g.Changes[op]
		own := op.Addr.ContainingResource().Unkeyed()
		switch {
		case op.Kind == OpCreate && im != nil:
			connectCreate(g, im, &preds, op, c, sets[own], prior)
		case op.Kind == OpCreate:
			// Rules 1 and 4: after the creates/updates of what it depends on,
			// and after (or, for a CBD dependency, before) their deletes.
			preds.reset()
			for _, dep := range mergeDeps(c.Dependencies, recordedDeps(prior, addrs.ObjectAddr{Instance: c.Addr})) {
				rs := sets[dep]
				if rs == nil || dep == own {
					continue
				}
				if s := rs.create; s != nil {
					preds.add(s, RuleDependency)
				}
				if s := rs.delete; s != nil {
					preds.add(s, RuleAfterDependencyDelete)
				}
				if s := rs.deleteCBD; s != nil {
					g.connect(op, s.before(), RuleBeforeCBDDelete)
				}
			}
			preds.connect(g, op)
		case op.Kind == OpDelete:
			// Rules 2 and 4: before the deletes of what it depended on, and
			// before (or, when itself CBD, after) their creates/updates.
			for _, dep := range recordedDeps(prior, addrs.ObjectAddr{Instance: c.Addr, Deposed: c.Deposed}) {
				rs := sets[dep]
				if rs == nil || dep == own {
					continue
				}
				for _, s := range []*opSet{rs.delete, rs.deleteCBD} {
					if s != nil {
						g.connect(op, s.before(), RuleReverseDestroy)
					}
				}
				if s := rs.create; s != nil {
					if g.isCBD(op) {
						g.connect(s.after(), op, RuleCBDDeleteAfterDependencyCreate)
					} else {
						g.connect(op, s.before(), RuleDeleteBeforeDependencyCreate)
					}
				}
			}
		}
	}

	return g
}

// checkAtApply reports whether the no-op change c has conditions the plan
// could not evaluate (their values were unknown): the apply then evaluates
// them in an operation of their own, which calls no provider.
func checkAtApply(p *plan.Plan, c *plan.ResourceInstanceChange) bool {
	return p.Mode == plan.NormalMode && c.Deposed == addrs.NotDeposed && c.Addr.Resource.Resource.Mode == addrs.Managed &&
		p.Checks.Pending(checks.ResourceObject(c.Addr))
}

// connect adds the edge from→to, recording its rule when asked to. An
// edge added twice keeps its first rule.
func (g *Graph) connect(from, to Op, r Rule) {
	g.G.Connect(from, to)
	if g.rules != nil {
		e := edge{from, to}
		if _, ok := g.rules[e]; !ok {
			g.rules[e] = r
		}
	}
}

// predecessors gathers the edges into one operation, each from the node
// that follows an opSet, to add them at once.
type predecessors struct {
	nodes []dag.Node
	sets  []*opSet
	rules []Rule
}

func (p *predecessors) reset() {
	p.nodes, p.sets, p.rules = p.nodes[:0], p.sets[:0], p.rules[:0]
}

// add adds the edge from s's last node, made by rule r.
func (p *predecessors) add(s *opSet, r Rule) {
	p.nodes = append(p.nodes, s.afterNode())
	if s.g.rules != nil {
		p.sets, p.rules = append(p.sets, s), append(p.rules, r)
	}
}

// connect adds the edges gathered into to, as Graph.connect would one by one.
func (p *predecessors) connect(g *Graph, to Op) {
	g.G.ConnectNodes(p.nodes, g.G.Node(to))
	for i, s := range p.sets {
		if e := (edge{s.after(), to}); !g.hasRule(e) {
			g.rules[e] = p.rules[i]
		}
	}
}

// hasRule reports whether the rules recorded hold e.
func (g *Graph) hasRule(e edge) bool {
	_, ok := g.rules[e]
	return ok
}

func (g *Graph) add(op Op, c *plan.ResourceInstanceChange) {
	g.G.Add(op)
	g.Changes[op] = c
}

// Verb says what an operation does: "create", "update", "read",
// "destroy", or "check" for the conditions of an unchanged object.
func (g *Graph) Verb(op Op) string {
	c := g.Changes[op]
	switch {
	case op.Kind == OpDelete:
		return "destroy"
	case c == nil:
		return ""
	case c.Action == plan.NoOp:
		return "check"
	case c.Action.IsReplace():
		return "create"
	}
	return c.Action.String()
}

// isCBD reports whether a delete operation is ordered create-before-destroy.
func (g *Graph) isCBD(op Op) bool {
	c := g.Changes[op]
	return c.CreateBeforeDestroy || op.Deposed != addrs.NotDeposed
}

// recordedDeps returns the dependencies recorded in state for an object.
func recordedDeps(s *state.State, addr addrs.ObjectAddr) []addrs.AbsResource {
	if obj := s.Object(addr); obj != nil {
		return obj.Dependencies
	}
	return nil
}

// mergeDeps returns the union of a and b, in the order of a then b; a
// itself when b holds nothing else (an object planned with the
// dependencies it recorded).
func mergeDeps(a, b []addrs.AbsResource) []addrs.AbsResource {
	if len(b) == 0 || slices.Equal(a, b) {
		return a
	}
	if len(a) == 0 {
		return b
	}
	seen := make(map[addrs.AbsResource]bool, len(a)+len(b))
	out := make([]addrs.AbsResource, 0, len(a)+len(b))
	for _, list := range [][]addrs.AbsResource{a, b} {
		for _, r := range list {
			if !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
		}
	}
	return out
}

func (g *Graph) label(op Op) string {
	if op.IsBarrier() {
		verb := "create"
		if op.Barrier.Deletes() {
			verb = "destroy"
		}
		return "all " + op.Addr.ContainingResource().String() + " (" + verb + ")"
	}
	if c := g.Changes[op]; c != nil && c.Deposed == addrs.NotDeposed && op.Deposed != addrs.NotDeposed {
		// The old object of a create_before_destroy replacement: its key is chosen at apply.
		return op.Addr.String() + " (" + g.Verb(op) + " deposed)"
	}
	obj := addrs.ObjectAddr{Instance: op.Addr, Deposed: op.Deposed}
	return obj.String() + " (" + g.Verb(op) + ")"
}

// Waves returns the operations grouped into waves that may run in parallel,
// in order, for showing users the order of operations.
func (g *Graph) Waves() [][]Op {
	w, err := g.G.Waves()
	if err != nil {
		return nil
	}
	return w
}

// Label returns the operation as the order of operations shows it:
// "terraform_data.a (update)", "terraform_data.a (destroy deposed)" for the old
// object of a create_before_destroy replacement, or
// "terraform_data.a (deposed object 1a2b3c4d) (destroy)" for one already deposed.
func (g *Graph) Label(op Op) string { return g.label(op) }
