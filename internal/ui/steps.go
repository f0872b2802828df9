package ui

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/dag"
	"github.com/rig-iac/rig/internal/plan"
)

// OrderStep is one operation in the order of operations.
type OrderStep struct {
	// Address is the resource instance, e.g. "terraform_data.a[0]".
	Address string `json:"address"`
	// Action is "create", "update", "read" or "delete", or "check" for
	// the conditions of an unchanged object that the plan could not
	// evaluate.
	Action string `json:"action"`
	// Deposed is "planned" for the old object of a create_before_destroy
	// replacement, the deposed key for an object deposed earlier, or empty.
	Deposed string `json:"deposed,omitempty"`
	// Provisioners are the types of the provisioners that run as part of
	// the operation, in order: after a create, before a delete.
	Provisioners []string `json:"provisioners,omitempty"`
	// ActionsBefore and ActionsAfter are the actions the operation runs
	// (action_trigger, Terraform 1.14) before and after it carries out its
	// change, in order.
	ActionsBefore []string `json:"actions_before,omitempty"`
	ActionsAfter  []string `json:"actions_after,omitempty"`
	// HealthGate is set on the create of a health-gated replacement
	// (rig.hcl): "gated", or "gated, batch N" for a rolling one.
	HealthGate string `json:"health_gate,omitempty"`
	// After lists the operations this one must wait for (its direct
	// prerequisites, leaving out those implied by others), as "action address".
	After []string `json:"after,omitempty"`
}

// OrderWaves returns the planned operations as waves: every operation of a
// wave waits only for operations of earlier waves, so a wave's operations
// may run in parallel. provisioners, when not nil, names the provisioners
// that run as part of an operation (apply.ProvisionerTypes).
func OrderWaves(g *apply.Graph, provisioners func(apply.Op) []string) [][]OrderStep {
	reduced, err := g.G.Reduced()
	if err != nil {
		return nil
	}
	al := newAfterLister(g, reduced)
	var out [][]OrderStep
	for _, wave := range g.Waves() {
		steps := make([]OrderStep, 0, len(wave))
		for _, op := range wave {
			if op.IsBarrier() {
				continue
			}
			s := orderStep(g, op)
			s.After = al.list(op)
			if provisioners != nil {
				s.Provisioners = provisioners(op)
			}
			for _, ai := range g.ActionsOf(op, true) {
				s.ActionsBefore = append(s.ActionsBefore, ai.Addr.String())
			}
			for _, ai := range g.ActionsOf(op, false) {
				s.ActionsAfter = append(s.ActionsAfter, ai.Addr.String())
			}
			steps = append(steps, s)
		}
		if len(steps) > 0 {
			out = append(out, steps)
		}
	}
	return out
}

// opGroup is the operations of one kind on one resource (in every module
// instance): what a barrier stands for.
type opGroup struct {
	kind     apply.OpKind
	resource addrs.AbsResource
}

func groupOf(op apply.Op) opGroup {
	kind := op.Kind
	if kind != apply.OpDelete {
		kind = apply.OpCreate
	}
	return opGroup{kind, op.Addr.ContainingResource().Unkeyed()}
}

func (gr opGroup) String() string {
	verb := "create"
	if gr.kind == apply.OpDelete {
		verb = "destroy"
	}
	return verb + " " + gr.resource.String() + "[*]"
}

// afterLister describes what operations wait for. What a "before" barrier
// waits for is described once and shared by every operation behind it, and
// every operation of a resource it waits for is named as one group, so a
// layer of W deletes waiting for W others costs O(W), not O(W²).
type afterLister struct {
	g       *apply.Graph
	reduced *dag.Graph[apply.Op]
	sizes   map[opGroup]int
	memo    map[apply.Op][]string
}

func newAfterLister(g *apply.Graph, reduced *dag.Graph[apply.Op]) *afterLister {
	al := &afterLister{g: g, reduced: reduced, sizes: map[opGroup]int{}, memo: map[apply.Op][]string{}}
	for op := range g.Changes {
		if !op.IsBarrier() {
			al.sizes[groupOf(op)]++
		}
	}
	return al
}

// list describes what op waits for: its direct prerequisites, looking
// through "before" barriers to what they wait for.
func (al *afterLister) list(op apply.Op) []string {
	var out []string
	seen := map[string]bool{}
	add := func(d string) {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, pred := range al.reduced.Predecessors(op) {
		if pred.Kind == apply.OpBarrierBefore {
			for _, d := range al.behind(pred) {
				add(d)
			}
			continue
		}
		add(describeOp(al.g, pred))
	}
	return out
}

// behind describes what a "before" barrier waits for, once.
func (al *afterLister) behind(barrier apply.Op) []string {
	if d, ok := al.memo[barrier]; ok {
		return d
	}
	var ops []apply.Op
	visited := map[apply.Op]bool{}
	var visit func(apply.Op)
	visit = func(o apply.Op) {
		for _, pred := range al.reduced.Predecessors(o) {
			if visited[pred] {
				continue
			}
			visited[pred] = true
			if pred.Kind == apply.OpBarrierBefore {
				visit(pred)
				continue
			}
			ops = append(ops, pred)
		}
	}
	visit(barrier)
	count := map[opGroup]int{}
	for _, o := range ops {
		if !o.IsBarrier() {
			count[groupOf(o)]++
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, o := range ops {
		d := ""
		if gr := groupOf(o); !o.IsBarrier() && count[gr] > 1 && count[gr] == al.sizes[gr] {
			d = gr.String()
		} else {
			d = describeOp(al.g, o)
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	al.memo[barrier] = out
	return out
}

// DescribeOp names an operation as the order of operations does ("update
// terraform_data.b", "destroy terraform_data.a (deposed)"), or for a barrier
// every operation it stands for ("create terraform_data.server[*]").
func DescribeOp(g *apply.Graph, op apply.Op) string { return describeOp(g, op) }

// describeOp names an operation, or for an "after" barrier every operation
// it follows ("create terraform_data.server[*]").
func describeOp(g *apply.Graph, op apply.Op) string {
	if op.IsBarrier() {
		verb := "create"
		if op.Barrier.Deletes() {
			verb = "destroy"
		}
		return verb + " " + op.Addr.ContainingResource().String() + "[*]"
	}
	s := orderStep(g, op)
	s.HealthGate = "" // said where the operation is listed
	return s.describe()
}

func orderStep(g *apply.Graph, op apply.Op) OrderStep {
	c := g.Changes[op]
	s := OrderStep{Address: op.Addr.String()}
	switch {
	case op.Kind == apply.OpDelete:
		s.Action = "delete"
	case c.Action == plan.Read:
		s.Action = "read"
	case c.Action == plan.Update:
		s.Action = "update"
	case c.Action == plan.NoOp:
		s.Action = "check"
	default:
		s.Action = "create"
	}
	if g := c.Gate; g != nil && op.Kind == apply.OpCreate && c.Action == plan.CreateThenDelete {
		s.HealthGate = "gated"
		if g.BatchSize > 0 {
			s.HealthGate = fmt.Sprintf("gated, batch %d", g.Batch+1)
		}
	}
	if op.Deposed != addrs.NotDeposed {
		if c.Deposed == addrs.NotDeposed {
			s.Deposed = "planned"
		} else {
			s.Deposed = string(op.Deposed)
		}
	}
	return s
}

// describe returns the step as the order of operations prints it: "destroy terraform_data.a (deposed)".
func (s OrderStep) describe() string {
	verb := s.Action
	if verb == "delete" {
		verb = "destroy"
	}
	out := verb + " " + s.Address
	switch s.Deposed {
	case "":
	case "planned":
		out += " (deposed)"
	default:
		out += " (deposed object " + s.Deposed + ")"
	}
	if s.HealthGate != "" {
		out += " (health " + s.HealthGate + ")"
	}
	first, then := s.ActionsBefore, []string(nil)
	if s.Action == "delete" {
		first = append(slices.Clone(s.Provisioners), first...)
	} else {
		then = s.Provisioners
	}
	then = append(slices.Clone(then), s.ActionsAfter...)
	if len(first) > 0 {
		out += " (" + strings.Join(first, ", ") + " first)"
	}
	if len(then) > 0 {
		out += " (then " + strings.Join(then, ", ") + ")"
	}
	return out
}

// RenderOrder writes the order of operations after a plan: numbered steps,
// each listing the operations that may run in parallel at that point and
// what each waits for.
func RenderOrder(w io.Writer, g *apply.Graph, provisioners func(apply.Op) []string, opts RenderOptions) {
	RenderWaves(w, OrderWaves(g, provisioners), opts)
}

// RenderWaves writes the "Order of operations" section RenderOrder writes,
// from waves OrderWaves computed, possibly on another goroutine while the
// plan itself was rendered.
func RenderWaves(w io.Writer, waves [][]OrderStep, opts RenderOptions) {
	if len(waves) == 0 {
		return
	}
	fmt.Fprint(w, colorize("\n[bold]Order of operations:[reset]\n", opts.Color))
	fmt.Fprintln(w, "(operations in one step may run in parallel; each waits for those it lists)")
	width := 0
	for _, wave := range waves {
		for _, s := range wave {
			width = max(width, len(s.describe()))
		}
	}
	for i, wave := range waves {
		prefix := fmt.Sprintf("%3d. ", i+1)
		for j, s := range wave {
			if j > 0 {
				prefix = strings.Repeat(" ", len(prefix))
			}
			line := prefix + s.describe()
			if len(s.After) > 0 {
				after, more := s.After, ""
				if len(after) > 3 {
					more = fmt.Sprintf(" and %d more", len(after)-3)
					after = after[:3]
				}
				line += strings.Repeat(" ", width-len(s.describe())) + "   after " + strings.Join(after, ", ") + more
			}
			fmt.Fprintln(w, line)
		}
	}
}

// Order writes the "order_of_operations" message: the planned operations
// in waves, as RenderOrder shows them. It is rig's addition to the stream.
func (v *JSONView) Order(waves [][]OrderStep) {
	n := 0
	for _, w := range waves {
		n += len(w)
	}
	if waves == nil {
		waves = [][]OrderStep{}
	}
	v.emit("info", fmt.Sprintf("Order of operations: %d operations in %d steps", n, len(waves)), "order_of_operations",
		map[string]any{"steps": waves})
}
