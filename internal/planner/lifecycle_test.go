package planner_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
)

func TestActionForms(t *testing.T) {
	tests := []struct {
		action                   plan.Action
		str                      string
		json                     []string
		replace, creates, delete bool
	}{
		{plan.NoOp, "no-op", []string{"no-op"}, false, false, false},
		{plan.Create, "create", []string{"create"}, false, true, false},
		{plan.Read, "read", []string{"read"}, false, false, false},
		{plan.Update, "update", []string{"update"}, false, false, false},
		{plan.DeleteThenCreate, "delete-then-create", []string{"delete", "create"}, true, true, true},
		{plan.CreateThenDelete, "create-then-delete", []string{"create", "delete"}, true, true, true},
		{plan.Delete, "delete", []string{"delete"}, false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.str, func(t *testing.T) {
			a := tt.action
			got := []any{a.String(), a.JSONActions(), a.IsReplace(), a.Creates(), a.Deletes()}
			want := []any{tt.str, tt.json, tt.replace, tt.creates, tt.delete}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestReasonJSON: the reasons are the JSON plan's action_reason strings.
func TestReasonJSON(t *testing.T) {
	want := map[plan.ActionReason]string{
		plan.ReasonNone:                    "",
		plan.ReplaceBecauseTainted:         "replace_because_tainted",
		plan.ReplaceByRequest:              "replace_by_request",
		plan.ReplaceBecauseCannotUpdate:    "replace_because_cannot_update",
		plan.ReplaceByTriggers:             "replace_by_triggers",
		plan.DeleteBecauseNoResourceConfig: "delete_because_no_resource_config",
		plan.DeleteBecauseWrongRepetition:  "delete_because_wrong_repetition",
		plan.DeleteBecauseCountIndex:       "delete_because_count_index",
		plan.DeleteBecauseEachKey:          "delete_because_each_key",
		plan.DeleteBecauseNoModule:         "delete_because_no_module",
	}
	for r, w := range want {
		if got := r.JSON(); got != w {
			t.Errorf("%d.JSON() = %q, want %q", r, got, w)
		}
	}
}

func TestPlanHasChangesAndChange(t *testing.T) {
	a := addrs.ObjectAddr{Instance: addrs.Resource{Mode: addrs.Managed, Type: "test_thing", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModule)}
	dep := addrs.ObjectAddr{Instance: a.Instance, Deposed: "00000001"}
	noop := &plan.ResourceInstanceChange{Addr: a.Instance, Action: plan.NoOp}
	del := &plan.ResourceInstanceChange{Addr: a.Instance, Deposed: dep.Deposed, Action: plan.Delete}
	tests := []struct {
		name string
		p    *plan.Plan
		want bool
	}{
		{"empty", &plan.Plan{}, false},
		{"no-ops only", &plan.Plan{Changes: []*plan.ResourceInstanceChange{noop}, Outputs: map[string]*plan.OutputChange{"o": {Action: plan.NoOp}}}, false},
		{"an object change", &plan.Plan{Changes: []*plan.ResourceInstanceChange{noop, del}}, true},
		{"an output change only", &plan.Plan{Changes: []*plan.ResourceInstanceChange{noop}, Outputs: map[string]*plan.OutputChange{"o": {Action: plan.Delete}}}, true},
	}
	for _, tt := range tests {
		if got := tt.p.HasChanges(); got != tt.want {
			t.Errorf("%s: HasChanges = %v, want %v", tt.name, got, tt.want)
		}
	}
	p := &plan.Plan{Changes: []*plan.ResourceInstanceChange{noop, del}}
	if p.Change(a) != noop || p.Change(dep) != del || p.Change(addrs.ObjectAddr{Instance: a.Instance, Deposed: "00000002"}) != nil {
		t.Errorf("Change does not tell current and deposed objects apart")
	}
}
