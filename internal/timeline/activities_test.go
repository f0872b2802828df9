package timeline

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/graphview"
	"github.com/rig-iac/rig/internal/plan"
)

// The Recorder notes actions, ephemeral resources and health gate checks as
// activities, placed within their operation when they have one, and the
// page draws each in a row under that operation (or among the operations
// by start), a failed one outlined.
func TestActivities(t *testing.T) {
	g := exampleGraph(t)
	var web apply.Op
	for _, op := range g.G.Nodes() {
		if c := g.Changes[op]; c != nil && !op.IsBarrier() && op.Kind == apply.OpCreate && c.Action.IsReplace() {
			web = op
			break
		}
	}
	if web.Addr.Resource.Resource.Type == "" {
		t.Fatal("no replacement in the example")
	}
	clock := t0
	tick := func() time.Time { clock = clock.Add(10 * time.Millisecond); return clock }
	rec := NewRecorder(Options{Command: "apply", Parallelism: 4, Now: tick})
	token := addrs.AbsResourceInstance{Resource: addrs.ResourceInstance{Resource: addrs.Resource{Mode: addrs.Ephemeral, Type: "test_token", Name: "t"}}}
	health := apply.GateRead{Resource: addrs.AbsResource{Resource: addrs.Resource{Mode: addrs.Data, Type: "http", Name: "health"}}}
	rec.PreOpen(token)
	rec.PostOpen(token, 0, false)
	rec.PreRenew(token)
	rec.PostRenew(token, 0, false)
	info := operation(g, web)
	rec.PreApply(info)
	event, _ := plan.ParseActionEvent("after_create")
	ai := &plan.ActionInvocation{Addr: addrs.Action{Type: "test_fail", Name: "f"}.Instance(addrs.RootModule, addrs.NoKey),
		Trigger: &plan.ActionTrigger{Resource: web.Addr, Event: event}}
	rec.ActionStart(ai)
	rec.ActionProgress(ai, "working")
	rec.ActionComplete(ai, errors.New("it failed"))
	rec.GateCheckStart(web.Addr, 1, []apply.GateRead{health})
	rec.GateCheckComplete(web.Addr, 1, errors.New("not ready"))
	rec.GateCheckStart(web.Addr, 2, []apply.GateRead{health})
	rec.GateCheckComplete(web.Addr, 2, nil)
	rec.PostApply(info, apply.Result{})
	rec.PreClose(token)
	rec.PostClose(token, 0, true)
	r := rec.Finish(g)

	type got struct {
		Kind      graphview.Action
		Label     string
		Operation bool
		Outcome   Outcome
		Error     string
	}
	var acts []got
	for _, a := range r.Activities {
		acts = append(acts, got{a.Kind, a.Label, a.Operation >= 0, a.Outcome, a.Error})
	}
	want := []got{
		{graphview.ActionOpenEphemeral, "open ephemeral.test_token.t", false, OK, ""},
		{graphview.ActionRenewEphemeral, "renew ephemeral.test_token.t", false, OK, ""},
		{graphview.ActionInvoke, "action.test_fail.f (after_create of " + web.Addr.String() + ")", true, Failed, "it failed"},
		{graphview.ActionGateCheck, "health gate check 1 of " + web.Addr.String() + " (reads data.http.health)", true, Failed, "not ready"},
		{graphview.ActionGateCheck, "health gate check 2 of " + web.Addr.String() + " (reads data.http.health)", true, OK, ""},
		{graphview.ActionCloseEphemeral, "close ephemeral.test_token.t", false, Failed, "failed to close ephemeral.test_token.t"},
	}
	if diff := cmp.Diff(want, acts); diff != "" {
		t.Errorf("activities (-want +got):\n%s", diff)
	}

	// Rows: the open and the renewal (before the operation started), the
	// operation, its action and its two checks, then the close.
	var b strings.Builder
	if err := WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile(`<rect class="(bar|activity)[^"]*"(?: data-kind="([a-z-]+)")?`).FindAllStringSubmatch(b.String(), -1)
	var order []string
	for _, m := range rows {
		if m[1] == "bar" {
			order = append(order, "operation")
		} else {
			order = append(order, m[2])
		}
	}
	if diff := cmp.Diff([]string{"open-ephemeral", "renew-ephemeral", "operation", "invoke-action", "gate-check", "gate-check", "close-ephemeral"}, order); diff != "" {
		t.Errorf("Gantt rows (-want +got):\n%s", diff)
	}
	for _, want := range []string{`class="activity failed" data-kind="gate-check"`, `<circle class="progress"`, "<title>working</title>", "open ephemeral", "health gate check", "close ephemeral"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the page lacks %q", want)
		}
	}

	// The record keeps them through a round trip.
	js, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Unmarshal(js)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r.Activities, back.Activities); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}
