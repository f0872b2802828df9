package graphview

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/apply"
	"github.com/rig-iac/rig/internal/plan"
)

// invocation returns an invocation of action.test_log.NAME fired by the
// event of resource instance res ("" for one -invoke names).
func invocation(t *testing.T, name, res, event string) *plan.ActionInvocation {
	t.Helper()
	ai := &plan.ActionInvocation{Addr: addrs.Action{Type: "test_log", Name: name}.Instance(addrs.RootModule, addrs.NoKey)}
	if res == "" {
		return ai
	}
	addr, err := addrs.ParseAbsResourceInstanceStr(res)
	if err != nil {
		t.Fatal(err)
	}
	e, ok := plan.ParseActionEvent(event)
	if !ok {
		t.Fatalf("event %q", event)
	}
	ai.Trigger = &plan.ActionTrigger{Resource: addr, Event: e}
	return ai
}

// Extend puts a before_* action between what its operation waits for and
// the operation, an after_* action between the operation and what waits
// for it, the actions -invoke names after every operation, and an
// ephemeral resource's opening before, and closing after, each operation
// that uses it; BuildWith draws them as nodes of their own, each new edge
// saying what orders it. With nothing to add, it is Build.
func TestExtend(t *testing.T) {
	p := examplePlan(t)
	p.ActionInvocations = []*plan.ActionInvocation{
		invocation(t, "invoked", "", ""),
		invocation(t, "before", "terraform_data.dns", "before_update"),
		invocation(t, "after", "terraform_data.dns", "after_update"),
	}
	g, ds := apply.OrderWith(p, apply.OrderOptions{Rules: true})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	var dns, lb apply.Op
	for op := range g.Changes {
		switch op.Addr.String() {
		case "terraform_data.dns":
			dns = op
		case "module.app.terraform_data.lb":
			lb = op
		}
	}
	token := addrs.ConfigResource{Resource: addrs.Resource{Mode: addrs.Ephemeral, Type: "test_token", Name: "t"}}
	x := Extras{Actions: p.ActionInvocations, Ephemerals: map[apply.Op][]addrs.ConfigResource{dns: {token}, lb: {token}}}
	d := BuildWith(g, p, x)

	byLabel := map[string]int{}
	for _, n := range d.Nodes {
		byLabel[n.Label] = n.ID
	}
	kinds := map[string]Action{}
	for _, label := range []string{"action.test_log.before (before_update of terraform_data.dns)", "action.test_log.after (after_update of terraform_data.dns)",
		"action.test_log.invoked (-invoke)", "open ephemeral.test_token.t", "close ephemeral.test_token.t"} {
		id, ok := byLabel[label]
		if !ok {
			t.Fatalf("no node %q", label)
		}
		kinds[label] = d.Nodes[id].Action
	}
	if diff := cmp.Diff(map[string]Action{
		"action.test_log.before (before_update of terraform_data.dns)": ActionInvoke,
		"action.test_log.after (after_update of terraform_data.dns)":   ActionInvoke,
		"action.test_log.invoked (-invoke)":                            ActionInvoke,
		"open ephemeral.test_token.t":                                  ActionOpenEphemeral,
		"close ephemeral.test_token.t":                                 ActionCloseEphemeral,
	}, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}

	edge := func(from, to string) (string, bool) {
		for _, e := range d.Edges {
			if e.From == byLabel[from] && e.To == byLabel[to] {
				return e.Rule, true
			}
		}
		return "", false
	}
	dnsLabel, lbLabel := g.Label(dns), g.Label(lb)
	for _, want := range []struct{ from, to, rule string }{
		{lbLabel, "action.test_log.before (before_update of terraform_data.dns)", "action.test_log.before (before_update of terraform_data.dns) runs after what its operation waits for"},
		{"action.test_log.before (before_update of terraform_data.dns)", dnsLabel, "action.test_log.before (before_update of terraform_data.dns) runs before " + dnsLabel + " starts"},
		{dnsLabel, "action.test_log.after (after_update of terraform_data.dns)", "action.test_log.after (after_update of terraform_data.dns) runs once its operation is done"},
		{"open ephemeral.test_token.t", lbLabel, "ephemeral.test_token.t is opened before " + lbLabel + ", which uses it"},
		{dnsLabel, "close ephemeral.test_token.t", "ephemeral.test_token.t is closed once " + dnsLabel + ", which uses it, is done"},
	} {
		rule, ok := edge(want.from, want.to)
		if !ok || rule != want.rule {
			t.Errorf("edge %s → %s: %v, rule %q, want %q", want.from, want.to, ok, rule, want.rule)
		}
	}
	// What waited for the dns update waits for its after_update action.
	for _, e := range d.Edges {
		if e.From == byLabel[dnsLabel] && d.Nodes[e.To].Action != ActionInvoke && d.Nodes[e.To].Action != ActionCloseEphemeral &&
			!strings.HasPrefix(d.Nodes[e.To].Label, "action.") {
			if _, ok := edge("action.test_log.after (after_update of terraform_data.dns)", d.Nodes[e.To].Label); !ok {
				t.Errorf("%s waits for %s but not for its after_update action", d.Nodes[e.To].Label, dnsLabel)
			}
		}
	}
	// The invoked action comes after every operation that nothing waits for.
	for _, n := range d.Nodes {
		if !n.IsOperation() || n.Action == ActionInvoke || n.Action == ActionCloseEphemeral {
			continue
		}
		out := slices.ContainsFunc(d.Edges, func(e Edge) bool { return e.From == n.ID })
		if _, ok := edge(n.Label, "action.test_log.invoked (-invoke)"); !out && !ok {
			t.Errorf("%s is a sink, and the invoked action does not follow it", n.Label)
		}
	}

	// Nothing to add: the document Build makes.
	if diff := cmp.Diff(Build(g, p), BuildWith(g, p, Extras{}), cmp.AllowUnexported(Document{})); diff != "" {
		t.Errorf("BuildWith with no extras (-Build +BuildWith):\n%s", diff)
	}
}
