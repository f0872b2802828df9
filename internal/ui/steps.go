package ui

import (
	"fmt"
	"io"
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
	// Action is "create", "update", "read" or "delete".
	Action string `json:"action"`
	// Deposed is "planned" for the old object of a create_before_destroy
	// replacement, the deposed key for an object deposed earlier, or empty.
	Deposed string `json:"deposed,omitempty"`
	// After lists the operations this one must wait for (its direct
	// prerequisites, leaving out those implied by others), as "action address".
	After []string `json:"after,omitempty"`
}

// OrderWaves returns the planned operations as waves: every operation of a
// wave waits only for operations of earlier waves, so a wave's operations
// may run in parallel.
func OrderWaves(g *apply.Graph) [][]OrderStep {
	reduced, err := g.G.Reduced()
	if err != nil {
		return nil
	}
	var out [][]OrderStep
	for _, wave := range g.Waves() {
		steps := make([]OrderStep, 0, len(wave))
		for _, op := range wave {
			if op.IsBarrier() {
				continue
			}
			s := orderStep(g, op)
			s.After = afterList(g, reduced, op)
			steps = append(steps, s)
		}
		if len(steps) > 0 {
			out = append(out, steps)
		}
	}
	return out
}

// afterList describes what op waits for: its direct prerequisites, looking
// through "before" barriers to what they wait for.
func afterList(g *apply.Graph, reduced *dag.Graph[apply.Op], op apply.Op) []string {
	var out []string
	seen := map[string]bool{}
	var visit func(apply.Op)
	visit = func(o apply.Op) {
		for _, pred := range reduced.Predecessors(o) {
			if pred.Kind == apply.OpBarrierBefore {
				visit(pred)
				continue
			}
			if d := describeOp(g, pred); !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	visit(op)
	return out
}

// describeOp names an operation, or for an "after" barrier every operation
// it follows ("create terraform_data.server[*]").
func describeOp(g *apply.Graph, op apply.Op) string {
	if op.IsBarrier() {
		verb := "create"
		if strings.HasPrefix(string(op.Deposed), "delete") {
			verb = "destroy"
		}
		return verb + " " + op.Addr.ContainingResource().String() + "[*]"
	}
	return orderStep(g, op).describe()
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
	default:
		s.Action = "create"
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
	return out
}

// RenderOrder writes the order of operations after a plan: numbered steps,
// each listing the operations that may run in parallel at that point and
// what each waits for.
func RenderOrder(w io.Writer, g *apply.Graph, opts RenderOptions) {
	RenderWaves(w, OrderWaves(g), opts)
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
