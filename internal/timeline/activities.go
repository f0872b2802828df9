package timeline

import (
	"bufio"
	"cmp"
	"fmt"
	"html"
	"slices"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/graphview"
	"github.com/rig-iac/rig/internal/plan"
)

// Activity is work an apply did within or beside its operations: an
// action invoked, an ephemeral resource instance opened, renewed or
// closed, a check of a health gate.
type Activity struct {
	// Kind is graphview.ActionInvoke, ActionOpenEphemeral,
	// ActionRenewEphemeral, ActionCloseEphemeral or ActionGateCheck.
	Kind graphview.Action `json:"kind"`
	// Address is the action instance's, the ephemeral resource
	// instance's, or the gated resource instance's.
	Address string `json:"address"`
	// Label says what ran: "action.x.y (after_create of test_thing.a)",
	// "open ephemeral.x.y", "health gate check 2 of test_thing.a".
	Label string `json:"label"`
	// Operation is the index in Record.Nodes of the operation it ran
	// within (a triggered action's, a gate check's); -1 for none.
	Operation int `json:"operation"`
	// Event is a triggered action's event ("before_create"), "invoke" for
	// an action -invoke asked for; "" for the other kinds.
	Event   string    `json:"event,omitempty"`
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"`
	Outcome Outcome   `json:"outcome"`
	Error   string    `json:"error,omitempty"`
	// Progress holds the messages an action's provider streamed.
	Progress []Progress `json:"progress,omitempty"`
	// Reads are the data sources a gate check read again.
	Reads []string `json:"reads,omitempty"`
}

// Progress is one progress message of an action, and when it came.
type Progress struct {
	At      time.Time `json:"at"`
	Message string    `json:"message"`
}

// Duration is how long the activity ran.
func (a Activity) Duration() time.Duration { return a.End.Sub(a.Start) }

// activity is an activity under way or done, with what Finish needs to
// place it.
type activity struct {
	Activity
	op    apply.Op
	hasOp bool
	ended bool
	// key finds the activity again when it ends: the invocation, or the
	// instance address with the kind, or the gated address with the check.
	key any
}

type ephemeralKey struct {
	addr addrs.AbsResourceInstance
	kind graphview.Action
}

type gateKey struct {
	addr  addrs.AbsResourceInstance
	check int
}

// begin notes that an activity started.
func (r *Recorder) begin(a *activity) {
	a.Start = r.opts.Now()
	r.mu.Lock()
	r.activities = append(r.activities, a)
	r.mu.Unlock()
}

// end notes that the activity found by key ended, with err its failure.
func (r *Recorder) end(key any, err string, failed bool) {
	now := r.opts.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.activities) - 1; i >= 0; i-- {
		a := r.activities[i]
		if a.ended || a.key != key {
			continue
		}
		a.End, a.ended, a.Outcome = now, true, OK
		if failed {
			a.Outcome, a.Error = Failed, err
		}
		return
	}
}

// Actions returns how many action invocations started.
func (r *Recorder) Actions() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, a := range r.activities {
		if a.Kind == graphview.ActionInvoke {
			n++
		}
	}
	return n
}

// ActionStart notes that an action invocation started (apply.ActionHooks).
func (r *Recorder) ActionStart(ai *plan.ActionInvocation) {
	a := &activity{key: ai}
	a.Kind, a.Address, a.Event, a.Label = graphview.ActionInvoke, ai.Addr.String(), "invoke", ai.Addr.String()+" (-invoke)"
	if t := ai.Trigger; t != nil {
		a.Event = t.Event.String()
		a.Label = fmt.Sprintf("%s (%s of %s)", ai.Addr, t.Event, t.Resource)
		kind := apply.OpCreate
		if ai.Destroys() {
			kind = apply.OpDelete
		}
		a.op, a.hasOp = apply.Op{Addr: t.Resource, Kind: kind}, true
	}
	r.begin(a)
}

// ActionProgress notes a progress message of a running invocation.
func (r *Recorder) ActionProgress(ai *plan.ActionInvocation, message string) {
	now := r.opts.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.activities) - 1; i >= 0; i-- {
		if a := r.activities[i]; a.key == any(ai) && !a.ended {
			a.Progress = append(a.Progress, Progress{At: now, Message: message})
			return
		}
	}
}

// ActionComplete notes that an invocation ended.
func (r *Recorder) ActionComplete(ai *plan.ActionInvocation, err error) {
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	r.end(ai, msg, err != nil)
}

func (r *Recorder) ephemeralStart(addr addrs.AbsResourceInstance, kind graphview.Action, verb string) {
	a := &activity{key: ephemeralKey{addr, kind}}
	a.Kind, a.Address, a.Label = kind, addr.String(), verb+" "+addr.String()
	r.begin(a)
}

func (r *Recorder) ephemeralEnd(addr addrs.AbsResourceInstance, kind graphview.Action, verb string, failed bool) {
	r.end(ephemeralKey{addr, kind}, "failed to "+verb+" "+addr.String(), failed)
}

// PreOpen notes that an ephemeral resource instance is being opened
// (ephemeral.Hooks).
func (r *Recorder) PreOpen(addr addrs.AbsResourceInstance) {
	r.ephemeralStart(addr, graphview.ActionOpenEphemeral, "open")
}

// PostOpen notes that it was opened.
func (r *Recorder) PostOpen(addr addrs.AbsResourceInstance, _ time.Duration, failed bool) {
	r.ephemeralEnd(addr, graphview.ActionOpenEphemeral, "open", failed)
}

// PreRenew notes that an open instance is being renewed
// (ephemeral.RenewHooks).
func (r *Recorder) PreRenew(addr addrs.AbsResourceInstance) {
	r.ephemeralStart(addr, graphview.ActionRenewEphemeral, "renew")
}

// PostRenew notes that it was renewed.
func (r *Recorder) PostRenew(addr addrs.AbsResourceInstance, _ time.Duration, failed bool) {
	r.ephemeralEnd(addr, graphview.ActionRenewEphemeral, "renew", failed)
}

// PreClose notes that an instance is being closed.
func (r *Recorder) PreClose(addr addrs.AbsResourceInstance) {
	r.ephemeralStart(addr, graphview.ActionCloseEphemeral, "close")
}

// PostClose notes that it was closed.
func (r *Recorder) PostClose(addr addrs.AbsResourceInstance, _ time.Duration, failed bool) {
	r.ephemeralEnd(addr, graphview.ActionCloseEphemeral, "close", failed)
}

// GateCheckStart notes that a check of a health gate started
// (apply.GateHooks).
func (r *Recorder) GateCheckStart(addr addrs.AbsResourceInstance, check int, reads []apply.GateRead) {
	a := &activity{key: gateKey{addr, check}, op: apply.Op{Addr: addr, Kind: apply.OpCreate}, hasOp: true}
	a.Kind, a.Address = graphview.ActionGateCheck, addr.String()
	a.Label = fmt.Sprintf("health gate check %d of %s", check, addr)
	for _, rd := range reads {
		a.Reads = append(a.Reads, rd.String())
	}
	if len(a.Reads) > 0 {
		a.Label += " (reads " + strings.Join(a.Reads, ", ") + ")"
	}
	r.begin(a)
}

// GateCheckComplete notes that the check ended; err says why the object
// did not pass it.
func (r *Recorder) GateCheckComplete(addr addrs.AbsResourceInstance, check int, err error) {
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	r.end(gateKey{addr, check}, msg, err != nil)
}

// finishActivities returns the activities noted, by start time, placed
// on the nodes of d; one that never ended is failed at now.
func (r *Recorder) finishActivities(d *graphview.Document, now time.Time) []Activity {
	if len(r.activities) == 0 {
		return nil
	}
	out := make([]Activity, 0, len(r.activities))
	for _, a := range r.activities {
		act := a.Activity
		act.Operation = -1
		if a.hasOp {
			if id, ok := d.NodeOf(a.op); ok {
				act.Operation = id
			}
		}
		if !a.ended {
			act.End, act.Outcome = now, Failed
		}
		out = append(out, act)
	}
	slices.SortStableFunc(out, compareActivities)
	return out
}

// activityRows returns the rows of the Gantt chart: each operation that
// ran (by start) followed by the activities that ran within it, and the
// activities of no operation placed among them by start time. A row is
// a node index (≥ 0) or -1-i for activity i.
func activityRows(r *Record, ran []int) []int {
	within := map[int][]int{}
	var beside []int
	for i, a := range r.Activities {
		if a.Operation >= 0 && r.Nodes[a.Operation].Ran() {
			within[a.Operation] = append(within[a.Operation], i)
		} else {
			beside = append(beside, i)
		}
	}
	rows := make([]int, 0, len(ran)+len(r.Activities))
	b := 0
	for _, v := range ran {
		for b < len(beside) && r.Activities[beside[b]].Start.Before(r.Nodes[v].Start) {
			rows = append(rows, -1-beside[b])
			b++
		}
		rows = append(rows, v)
		for _, i := range within[v] {
			rows = append(rows, -1-i)
		}
	}
	for ; b < len(beside); b++ {
		rows = append(rows, -1-beside[b])
	}
	return rows
}

// compareActivities orders activities by start, then label.
func compareActivities(a, b Activity) int {
	return cmp.Or(a.Start.Compare(b.Start), cmp.Compare(a.Label, b.Label))
}

// writeActivity writes the bar of activity a (the i-th) in the row at y
// of the Gantt chart: an SVG "rect" of class "activity", with data-kind,
// data-activity, data-operation and data-outcome, and a tick ("circle"
// of class "progress") per progress message.
func writeActivity(bw *bufio.Writer, a Activity, i, y, rowH int, x func(time.Time) float64) {
	if rowH >= bigRowH {
		fmt.Fprintf(bw, `<text class="label activity-label" x="%d" y="%d">%s</text>`, labelW-6, y+rowH-4, html.EscapeString(truncate(a.Label, 54)))
	}
	class := "activity"
	if a.Outcome == Failed {
		class += " failed"
	}
	bx := x(a.Start)
	note := ""
	if a.Error != "" {
		note = ": " + a.Error
	}
	bw.WriteString("\n")
	fmt.Fprintf(bw, `<rect class="%s" data-kind="%s" data-activity="%d" data-operation="%d" data-outcome="%s" x="%s" y="%d" width="%s" height="%d" fill="%s"><title>%s: %s (%s)%s</title></rect>`,
		class, a.Kind, i, a.Operation, a.Outcome, num(bx), y+3, num(max(1.5, x(a.End)-bx)), max(1, rowH-6), a.Kind.Color(),
		html.EscapeString(a.Label), formatDuration(a.Duration()), a.Outcome, html.EscapeString(note))
	for _, p := range a.Progress {
		fmt.Fprintf(bw, `<circle class="progress" cx="%s" cy="%s" r="2.5"><title>%s</title></circle>`,
			num(x(p.At)), num(float64(y)+float64(rowH)/2), html.EscapeString(p.Message))
	}
}
