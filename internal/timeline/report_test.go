package timeline

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/graphview"
)

func TestReport(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	node := func(label string, action graphview.Action, outcome Outcome, start int) Node {
		n := Node{Label: label, Address: label, Action: action, Outcome: outcome}
		if outcome != NotRun {
			n.Start, n.End = t0.Add(time.Duration(start)*time.Second), t0.Add(time.Duration(start+1)*time.Second)
		}
		return n
	}
	// a ok; b failed; j a junction after b; c after j; d after c; e after
	// nothing that failed; p stopped by its precondition; q after p.
	rec := &Record{Command: "apply", Nodes: []Node{
		node("a", graphview.ActionCreate, OK, 0),
		node("b", graphview.ActionUpdate, Failed, 1),
		node("j", graphview.ActionJunction, NotRun, 0),
		node("c", graphview.ActionCreate, NotRun, 0),
		node("d", graphview.ActionDelete, NotRun, 0),
		node("e", graphview.ActionCreate, NotRun, 0),
		node("p", graphview.ActionCreate, NotRun, 0),
		node("q", graphview.ActionCreate, NotRun, 0),
	}, Edges: []Edge{{From: 1, To: 2}, {From: 2, To: 3}, {From: 3, To: 4}, {From: 0, To: 5}, {From: 6, To: 7}}}
	rec.Nodes[1].Error = "boom"
	rec.NoteErrors(map[string]string{"p": "Resource precondition failed", "b": "not this one"})
	got := rec.Report()
	want := &Report{Command: "apply", Outcome: "failed",
		Applied: []ReportOp{{Operation: "a", Address: "a", Action: graphview.ActionCreate}},
		Failed: []ReportOp{
			{Operation: "b", Address: "b", Action: graphview.ActionUpdate, Error: "boom"},
			{Operation: "p", Address: "p", Action: graphview.ActionCreate, Error: "Resource precondition failed"},
		},
		NotStarted: []ReportOp{
			{Operation: "c", Address: "c", Action: graphview.ActionCreate, BlockedBy: []string{"b"}},
			{Operation: "d", Address: "d", Action: graphview.ActionDelete, BlockedBy: []string{"b"}},
			{Operation: "e", Address: "e", Action: graphview.ActionCreate},
			{Operation: "q", Address: "q", Action: graphview.ActionCreate, BlockedBy: []string{"p"}},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	if got.Left() != 6 {
		t.Errorf("Left() = %d, want 6", got.Left())
	}
	rec.Interrupted = true
	if got := rec.Report(); got.Outcome != "interrupted" {
		t.Errorf("outcome of an interrupted apply: %q", got.Outcome)
	}
}
