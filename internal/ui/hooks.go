package ui

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/plan"
)

// Operation is what a change summary sums up.
type Operation uint8

const (
	// OperationPlan sums up a plan: "Plan: 1 to add, …".
	OperationPlan Operation = iota
	// OperationApply sums up an apply: "Apply complete! Resources: …".
	OperationApply
	// OperationDestroy sums up a destroy: "Destroy complete! Resources: N destroyed.".
	OperationDestroy
)

// String returns the operation as the JSON change summary writes it.
func (op Operation) String() string {
	switch op {
	case OperationApply:
		return "apply"
	case OperationDestroy:
		return "destroy"
	}
	return "plan"
}

// ChangeSummary counts the objects a plan or apply adds, changes, removes
// and forgets; a replacement counts as one added and one removed, a
// forget-then-create as one added and one forgotten.
type ChangeSummary struct {
	Add, Change, Import, Remove, Forget int
	// Actions counts the actions planned or invoked, ActionFail those
	// that failed (Terraform 1.14).
	Actions, ActionFail int
	Operation           Operation
}

// String returns the summary sentence OpenTofu prints (and the -json
// change_summary message carries).
func (s ChangeSummary) String() string {
	var b strings.Builder
	switch s.Operation {
	case OperationApply:
		b.WriteString("Apply complete! Resources: ")
		if s.Import > 0 {
			fmt.Fprintf(&b, "%d imported, ", s.Import)
		}
		fmt.Fprintf(&b, "%d added, %d changed, %d destroyed", s.Add, s.Change, s.Remove)
		if s.Forget > 0 {
			fmt.Fprintf(&b, ", %d forgotten", s.Forget)
		}
		b.WriteString(".")
		if s.Actions > 0 {
			fmt.Fprintf(&b, " Actions: %d invoked", s.Actions)
			if s.ActionFail > 0 {
				fmt.Fprintf(&b, ", %d failed", s.ActionFail)
			}
			b.WriteString(".")
		}
	case OperationDestroy:
		fmt.Fprintf(&b, "Destroy complete! Resources: %d destroyed.", s.Remove)
		if s.Actions > 0 {
			fmt.Fprintf(&b, " Actions: %d invoked.", s.Actions)
		}
	default:
		b.WriteString("Plan: ")
		if s.Import > 0 {
			fmt.Fprintf(&b, "%d to import, ", s.Import)
		}
		fmt.Fprintf(&b, "%d to add, %d to change, %d to destroy", s.Add, s.Change, s.Remove)
		if s.Forget > 0 {
			fmt.Fprintf(&b, ", %d to forget", s.Forget)
		}
		b.WriteString(".")
		if s.Actions > 0 {
			fmt.Fprintf(&b, " Actions: %d to invoke.", s.Actions)
		}
	}
	return b.String()
}

// PlanSummary counts the changes of a plan as its "Plan:" line does.
func PlanSummary(p *plan.Plan) ChangeSummary {
	s := ChangeSummary{Operation: OperationPlan, Actions: len(p.ActionInvocations)}
	for _, c := range p.Changes {
		if c.Action == plan.Delete && c.Addr.Resource.Resource.Mode == addrs.Data {
			continue
		}
		if c.Importing != nil {
			s.Import++
		}
		switch c.Action {
		case plan.Create:
			s.Add++
		case plan.Update:
			s.Change++
		case plan.Delete:
			s.Remove++
		case plan.DeleteThenCreate, plan.CreateThenDelete:
			s.Add++
			s.Remove++
		case plan.Forget:
			s.Forget++
		case plan.ForgetThenCreate:
			s.Add++
			s.Forget++
		}
	}
	return s
}

// RenderApplySummary writes the line that ends an apply or destroy:
// "\nApply complete! Resources: 1 added, 0 changed, 0 destroyed.\n".
func RenderApplySummary(w io.Writer, s ChangeSummary, opts RenderOptions) error {
	// The sentence holds no "[": it is safe inside the color template.
	_, err := io.WriteString(w, colorize("[reset][bold][green]\n"+s.String()+"\n", opts.Color))
	return err
}

// HumanHooks prints apply progress as OpenTofu does, one line per event:
// "terraform_data.a: Creating...", "terraform_data.a: Creation complete
// after 0s [id=…]". Failures print nothing: they are reported as
// diagnostics. It is safe for concurrent use; mu serializes writes to W.
type HumanHooks struct {
	mu    sync.Mutex
	w     io.Writer
	color bool
}

var _ apply.Hooks = (*HumanHooks)(nil)

// NewHumanHooks returns hooks printing to w.
func NewHumanHooks(w io.Writer, opts RenderOptions) *HumanHooks {
	return &HumanHooks{w: w, color: opts.Color}
}

func (h *HumanHooks) println(template string, args ...any) {
	line := fmt.Sprintf(colorize(template, h.color), args...) + "\n"
	h.mu.Lock()
	defer h.mu.Unlock()
	_, _ = io.WriteString(h.w, line)
}

// PreApply prints "ADDR: Creating...", "Modifying... [id=…]" or "Destroying... [id=…]".
func (h *HumanHooks) PreApply(op apply.Operation) {
	verb := ""
	switch op.Action {
	case plan.Create:
		verb = "Creating..."
	case plan.Update:
		verb = "Modifying..."
	case plan.Delete:
		verb = "Destroying..."
	case plan.Read:
		verb = "Reading..."
	default:
		return
	}
	h.println("[reset][bold]%s: %s%s[reset]", objectAddr(op), verb, idSuffix(priorID(op)))
}

// Progress prints "ADDR: Still creating... [10s elapsed]".
func (h *HumanHooks) Progress(op apply.Operation, elapsed time.Duration) {
	verb := ""
	switch op.Action {
	case plan.Create:
		verb = "Still creating..."
	case plan.Update:
		verb = "Still modifying..."
	case plan.Delete:
		verb = "Still destroying..."
	case plan.Read:
		verb = "Still reading..."
	default:
		return
	}
	id := ""
	if v := priorID(op); v != "" {
		id = "id=" + truncateID(v, 80) + ", "
	}
	h.println("[reset][bold]%s: %s [%s%s elapsed][reset]", op.Addr, verb, id, elapsed.Round(time.Second))
}

// PostApply prints "ADDR: Creation complete after 1s [id=…]"; nothing for a failure.
func (h *HumanHooks) PostApply(op apply.Operation, res apply.Result) {
	if res.Err != nil {
		return
	}
	noun := ""
	switch op.Action {
	case plan.Create:
		noun = "Creation complete"
	case plan.Update:
		noun = "Modifications complete"
	case plan.Delete:
		noun = "Destruction complete"
	case plan.Read:
		noun = "Read complete"
	default:
		return
	}
	id := res.NewIDValue
	if op.Action == plan.Delete {
		id = ""
	}
	h.println("[reset][bold]%s: %s after %s%s", objectAddr(op), noun, res.Elapsed.Round(time.Second), idSuffix(id))
}

// PreProvision prints "ADDR: Provisioning with 'local-exec'...".
func (h *HumanHooks) PreProvision(op apply.Operation, typ string) {
	h.println("[reset][bold]%s: Provisioning with '%s'...[reset]", op.Addr, typ)
}

// ProvisionOutput prints a line of a provisioner's output after the prefix
// "ADDR (local-exec): ", without its trailing spaces; a blank line prints
// as one.
func (h *HumanHooks) ProvisionOutput(op apply.Operation, typ string, line string) {
	line = strings.TrimRightFunc(line, unicode.IsSpace)
	if line == "" {
		h.println("")
		return
	}
	// As OpenTofu prints it: the prefix colored on its own, then the line
	// (an argument, never part of a color template).
	prefix := fmt.Sprintf(colorize("[reset][bold]%s (%s):[reset] ", h.color), op.Addr, typ)
	h.println("%s%s", prefix, line)
}

// PostProvision prints nothing: a failure is reported as a diagnostic.
func (h *HumanHooks) PostProvision(apply.Operation, string, error) {}

// objectAddr is the operation's object as messages name it, with
// " (deposed object KEY)" for a deposed object.
func objectAddr(op apply.Operation) string {
	return addrs.ObjectAddr{Instance: op.Addr, Deposed: op.Deposed}.String()
}

// priorID is the id shown when an operation starts: the object's id before
// it, which a create has none of.
func priorID(op apply.Operation) string {
	if op.Action == plan.Create {
		return ""
	}
	return op.IDValue
}

func idSuffix(id string) string {
	if id == "" {
		return ""
	}
	return " [id=" + id + "]"
}

// truncateID shortens an id to max characters, keeping both ends.
func truncateID(id string, max int) string {
	r := []rune(id)
	if len(r) <= max {
		return id
	}
	half := max / 2
	right := len(r) - half - 1
	if over := max - (half*2 + 3); over < 0 {
		right -= over
	}
	return string(r[:half-1]) + "..." + string(r[right:])
}

// CountHooks counts the operations of an apply that succeed, for its
// summary line. It is safe for concurrent use.
type CountHooks struct {
	mu                      sync.Mutex
	added, changed, removed int
	invoked, failed         int
}

var _ apply.Hooks = (*CountHooks)(nil)

// PreApply does nothing.
func (c *CountHooks) PreApply(apply.Operation) {}

// Progress does nothing.
func (c *CountHooks) Progress(apply.Operation, time.Duration) {}

// PostApply counts a successful create, update or delete.
func (c *CountHooks) PostApply(op apply.Operation, res apply.Result) {
	if res.Err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch op.Action {
	case plan.Create:
		c.added++
	case plan.Update:
		c.changed++
	case plan.Delete:
		c.removed++
	}
}

// PreProvision does nothing.
func (c *CountHooks) PreProvision(apply.Operation, string) {}

// ProvisionOutput does nothing.
func (c *CountHooks) ProvisionOutput(apply.Operation, string, string) {}

// PostProvision does nothing.
func (c *CountHooks) PostProvision(apply.Operation, string, error) {}

// Summary returns the counts so far as a summary of operation op.
func (c *CountHooks) Summary(op Operation) ChangeSummary {
	c.mu.Lock()
	defer c.mu.Unlock()
	return ChangeSummary{Add: c.added, Change: c.changed, Remove: c.removed, Actions: c.invoked, ActionFail: c.failed, Operation: op}
}
