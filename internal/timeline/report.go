package timeline

import (
	"fmt"
	"html"
	"io"
	"slices"
	"strings"

	"github.com/rig-iac/rig/internal/graphview"
)

// Report is the account of an apply or destroy that did not finish: what
// was applied, what failed and why, what did not start and because of
// which failure, and what is left to do. It is derived from a Record
// alone, so "rig show -last-apply" tells the same story as the run did.
type Report struct {
	// Command is "apply" or "destroy".
	Command string `json:"command"`
	// Outcome is "complete", "failed" or "interrupted" (interrupted wins
	// when both).
	Outcome string `json:"outcome"`
	// Applied are the operations that succeeded, in the order they started.
	Applied []ReportOp `json:"applied"`
	// Failed are the operations that failed, each with its error.
	Failed []ReportOp `json:"failed"`
	// NotStarted are the operations that did not start, each with the
	// failures it waited for (BlockedBy) or none when the apply stopped
	// before it (an interrupt, or a failure outside the operations).
	NotStarted []ReportOp `json:"not_started"`
}

// ReportOp is one operation of a report.
type ReportOp struct {
	// Operation is how the order of operations names it: "create ADDR".
	Operation string `json:"operation"`
	// Address is the object's address.
	Address string `json:"address"`
	// Action is the operation's action (create, update, delete, …).
	Action graphview.Action `json:"action"`
	// Error is a failed operation's error.
	Error string `json:"error,omitempty"`
	// BlockedBy are the failed operations a not started one waited for,
	// directly or through others that did not start.
	BlockedBy []string `json:"blocked_by,omitempty"`
}

// Left is what the apply left to do: the failed operations and those
// that did not start.
func (r *Report) Left() int {
	n := len(r.NotStarted)
	for _, o := range r.Failed {
		if !slices.ContainsFunc(r.Applied, func(a ReportOp) bool { return a.Operation == o.Operation }) {
			n++
		}
	}
	return n
}

// Report derives the report of r. An operation that did not start waits
// for the failed operations among its predecessors in the operation
// graph, found through junctions and other operations that did not start.
func (r *Record) Report() *Report {
	rep := &Report{Command: r.Command, Outcome: "complete", Applied: []ReportOp{}, Failed: []ReportOp{}, NotStarted: []ReportOp{}}
	if rep.Command == "" {
		rep.Command = "apply"
	}
	preds := make([][]int, len(r.Nodes))
	for _, e := range r.Edges {
		preds[e.To] = append(preds[e.To], e.From)
	}
	// blockers[v]: the failed operations v waits for, memoized; the graph
	// is acyclic, so a depth-first walk ends.
	blockers := make([][]int, len(r.Nodes))
	done := make([]bool, len(r.Nodes))
	var visit func(v int) []int
	visit = func(v int) []int {
		if done[v] {
			return blockers[v]
		}
		done[v] = true
		var out []int
		for _, u := range preds[v] {
			switch n := r.Nodes[u]; {
			case n.Outcome == Failed || n.Error != "":
				out = append(out, u)
			case n.Outcome == NotRun:
				out = append(out, visit(u)...)
			}
		}
		slices.Sort(out)
		blockers[v] = slices.Compact(out)
		return blockers[v]
	}
	op := func(v int) ReportOp {
		n := r.Nodes[v]
		return ReportOp{Operation: n.Label, Address: n.Address, Action: n.Action, Error: n.Error}
	}
	for _, v := range r.Ran() {
		switch n := r.Nodes[v]; {
		case n.Outcome == Failed:
			rep.Failed = append(rep.Failed, op(v))
		case n.Error != "":
			// Applied and recorded, but its conditions failed.
			rep.Applied = append(rep.Applied, op(v))
			rep.Failed = append(rep.Failed, op(v))
		default:
			rep.Applied = append(rep.Applied, op(v))
		}
	}
	for v, n := range r.Nodes {
		if n.Outcome != NotRun || n.Action == graphview.ActionJunction || n.Action == graphview.ActionNoOp {
			continue
		}
		if n.Error != "" {
			// Stopped before it started, by its preconditions.
			rep.Failed = append(rep.Failed, op(v))
			continue
		}
		o := op(v)
		for _, u := range visit(v) {
			o.BlockedBy = append(o.BlockedBy, r.Nodes[u].Label)
		}
		rep.NotStarted = append(rep.NotStarted, o)
	}
	switch {
	case r.Interrupted:
		rep.Outcome = "interrupted"
	case len(rep.Failed) > 0 || len(rep.NotStarted) > 0:
		rep.Outcome = "failed"
	}
	return rep
}

// listed is how many operations of each list Text shows; the JSON forms
// hold them all.
const listed = 20

// more writes the line that stands for the n operations a list leaves out.
func more(b *strings.Builder, n int) {
	fmt.Fprintf(b, "  … and %d more (rig show -last-apply -json lists them all)\n", n)
}

// Text renders the report for people: a headline, then the failed, the
// not started and the applied operations (at most 20 of each), and what
// to do next.
func (r *Report) Text() string {
	var b strings.Builder
	verb := "Apply"
	if r.Command == "destroy" {
		verb = "Destroy"
	}
	switch r.Outcome {
	case "complete":
		fmt.Fprintf(&b, "%s report: complete, %d operation(s) applied.\n", verb, len(r.Applied))
	case "interrupted":
		fmt.Fprintf(&b, "%s report: interrupted. %d applied, %d failed, %d not started.\n", verb, len(r.Applied), len(r.Failed), len(r.NotStarted))
	default:
		fmt.Fprintf(&b, "%s report: failed. %d applied, %d failed, %d not started.\n", verb, len(r.Applied), len(r.Failed), len(r.NotStarted))
	}
	if len(r.Failed) > 0 {
		b.WriteString("\nFailed:\n")
		for i, o := range r.Failed {
			if i == listed {
				more(&b, len(r.Failed)-i)
				break
			}
			fmt.Fprintf(&b, "  %s\n", o.Operation)
			if o.Error != "" {
				for _, line := range strings.Split(strings.TrimSpace(o.Error), "\n") {
					fmt.Fprintf(&b, "      %s\n", line)
				}
			}
		}
	}
	if len(r.NotStarted) > 0 {
		b.WriteString("\nNot started:\n")
		for i, o := range r.NotStarted {
			if i == listed {
				more(&b, len(r.NotStarted)-i)
				break
			}
			switch {
			case len(o.BlockedBy) > 0:
				fmt.Fprintf(&b, "  %s (waits for the failed %s)\n", o.Operation, strings.Join(o.BlockedBy, ", "))
			case r.Outcome == "interrupted":
				fmt.Fprintf(&b, "  %s (the %s was interrupted before it started)\n", o.Operation, r.Command)
			default:
				fmt.Fprintf(&b, "  %s (the %s stopped before it started)\n", o.Operation, r.Command)
			}
		}
	}
	if len(r.Applied) > 0 {
		b.WriteString("\nApplied (recorded in the state):\n")
		for i, o := range r.Applied {
			if i == listed {
				more(&b, len(r.Applied)-i)
				break
			}
			fmt.Fprintf(&b, "  %s\n", o.Operation)
		}
	}
	if n := r.Left(); n > 0 {
		left := fmt.Sprintf("Left to do: %d operation(s). The state records every operation that finished, so the next plan holds only what is left", n)
		if len(r.Failed) > 0 {
			left += "; an object a failed create left behind is tainted and will be replaced"
		}
		left += fmt.Sprintf(". Fix what failed and run \"rig %s\" again.", r.Command)
		b.WriteString("\n" + wrap(left, 78) + "\n")
	}
	return b.String()
}

// NoteErrors adds the errors of the run that concern an object but were
// not an operation's failure — a precondition that stopped an operation
// before it started, a postcondition that failed after it — to the
// object's operations: one that did not start takes the error (and counts
// as failed in the report), one that ran keeps its outcome and the error.
// errs maps an object's address to its errors' text; NoteErrors takes
// out the addresses whose operations failed.
func (r *Record) NoteErrors(errs map[string]string) {
	if len(errs) == 0 {
		return
	}
	// An object whose operation failed has its error already.
	for _, n := range r.Nodes {
		if n.Outcome == Failed {
			delete(errs, n.Address)
		}
	}
	for i := range r.Nodes {
		n := &r.Nodes[i]
		msg, ok := errs[n.Address]
		if !ok || n.Error != "" || n.Action == graphview.ActionJunction {
			continue
		}
		if n.Outcome == NotRun || n.Outcome == OK {
			n.Error = msg
		}
	}
}

// writeReport writes the report section of the timeline page of an apply
// that failed or was interrupted (nothing for one that completed): the
// report's text, each failed operation's error and each not started
// one's blockers.
func writeReport(w io.Writer, r *Record) {
	rep := r.Report()
	if rep.Outcome == "complete" {
		return
	}
	fmt.Fprintf(w, "<section id=\"report\"><h2>Report: %s</h2>\n<pre>%s</pre></section>\n", rep.Outcome, html.EscapeString(rep.Text()))
}

// wrap breaks text into lines of at most width bytes at spaces (a longer
// word stands alone).
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case n+1+len(w) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}
