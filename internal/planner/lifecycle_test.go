package planner_test

import (
	"testing"

	"github.com/rig-iac/rig/internal/planner"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/plan"
)

func traversals(t *testing.T, srcs ...string) []hcl.Traversal {
	t.Helper()
	var out []hcl.Traversal
	for _, s := range srcs {
		trav, ds := hclsyntax.ParseTraversalAbs([]byte(s), "ignore", hcl.InitialPos)
		if ds.HasErrors() {
			t.Fatalf("%s: %s", s, ds.Error())
		}
		out = append(out, trav)
	}
	return out
}

func TestApplyIgnoreChanges(t *testing.T) {
	strs := func(ss ...string) cty.Value {
		var vs []cty.Value
		for _, s := range ss {
			vs = append(vs, cty.StringVal(s))
		}
		return cty.ListVal(vs)
	}
	smap := func(kv ...string) cty.Value {
		m := map[string]cty.Value{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = cty.StringVal(kv[i+1])
		}
		if len(m) == 0 {
			return cty.MapValEmpty(cty.String)
		}
		return cty.MapVal(m)
	}
	obj := func(attrs map[string]cty.Value) cty.Value {
		base := map[string]cty.Value{
			"id":   cty.NullVal(cty.String),
			"name": cty.NullVal(cty.String),
			"list": cty.NullVal(cty.List(cty.String)),
			"tags": cty.NullVal(cty.Map(cty.String)),
			"any":  cty.NullVal(cty.DynamicPseudoType),
		}
		for k, v := range attrs {
			base[k] = v
		}
		return cty.ObjectVal(base)
	}
	tests := []struct {
		name       string
		ignore     []string
		all        bool
		prior, cfg cty.Value
		want       cty.Value
	}{
		{
			name:   "nothing ignored",
			prior:  obj(map[string]cty.Value{"name": cty.StringVal("old")}),
			cfg:    obj(map[string]cty.Value{"name": cty.StringVal("new")}),
			want:   obj(map[string]cty.Value{"name": cty.StringVal("new")}),
			ignore: nil,
		},
		{
			name:   "an attribute",
			ignore: []string{"name"},
			prior:  obj(map[string]cty.Value{"name": cty.StringVal("old"), "list": strs("a")}),
			cfg:    obj(map[string]cty.Value{"name": cty.StringVal("new"), "list": strs("b")}),
			want:   obj(map[string]cty.Value{"name": cty.StringVal("old"), "list": strs("b")}),
		},
		{
			name:   "an attribute set in config but null before",
			ignore: []string{"name"},
			prior:  obj(nil),
			cfg:    obj(map[string]cty.Value{"name": cty.StringVal("new")}),
			want:   obj(nil),
		},
		{
			name:   "a list element",
			ignore: []string{"list[1]"},
			prior:  obj(map[string]cty.Value{"list": strs("a", "b")}),
			cfg:    obj(map[string]cty.Value{"list": strs("x", "y")}),
			want:   obj(map[string]cty.Value{"list": strs("x", "b")}),
		},
		{
			name:   "a map element that changed",
			ignore: []string{`tags["a"]`},
			prior:  obj(map[string]cty.Value{"tags": smap("a", "1", "b", "1")}),
			cfg:    obj(map[string]cty.Value{"tags": smap("a", "2", "b", "2")}),
			want:   obj(map[string]cty.Value{"tags": smap("a", "1", "b", "2")}),
		},
		{
			name:   "a map element added in config stays absent",
			ignore: []string{`tags["new"]`},
			prior:  obj(map[string]cty.Value{"tags": smap("a", "1")}),
			cfg:    obj(map[string]cty.Value{"tags": smap("a", "1", "new", "x")}),
			want:   obj(map[string]cty.Value{"tags": smap("a", "1")}),
		},
		{
			name:   "a map element removed in config is kept",
			ignore: []string{`tags["a"]`},
			prior:  obj(map[string]cty.Value{"tags": smap("a", "1")}),
			cfg:    obj(map[string]cty.Value{"tags": smap()}),
			want:   obj(map[string]cty.Value{"tags": smap("a", "1")}),
		},
		{
			name:   "a map element of a map that was null",
			ignore: []string{`tags["a"]`},
			prior:  obj(nil),
			cfg:    obj(map[string]cty.Value{"tags": smap("a", "1")}),
			want:   obj(map[string]cty.Value{"tags": cty.MapValEmpty(cty.String)}),
		},
		{
			name:   "the last map element removed from a null config map stays null",
			ignore: []string{`tags["a"]`},
			prior:  obj(map[string]cty.Value{"tags": smap("b", "1")}),
			cfg:    obj(nil),
			want:   obj(nil),
		},
		{
			name:   "a whole map",
			ignore: []string{"tags"},
			prior:  obj(map[string]cty.Value{"tags": smap("a", "1")}),
			cfg:    obj(map[string]cty.Value{"tags": smap("b", "2")}),
			want:   obj(map[string]cty.Value{"tags": smap("a", "1")}),
		},
		{
			name:   "a dynamic attribute whose type changed",
			ignore: []string{"any"},
			prior:  obj(map[string]cty.Value{"any": cty.StringVal("s")}),
			cfg:    obj(map[string]cty.Value{"any": cty.ObjectVal(map[string]cty.Value{"k": cty.True})}),
			want:   obj(map[string]cty.Value{"any": cty.StringVal("s")}),
		},
		{
			name:   "a key of an object ignores the whole object",
			ignore: []string{`any["k"]`},
			prior:  obj(map[string]cty.Value{"any": cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("1"), "l": cty.StringVal("1")})}),
			cfg:    obj(map[string]cty.Value{"any": cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("2"), "l": cty.StringVal("2")})}),
			want:   obj(map[string]cty.Value{"any": cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("1"), "l": cty.StringVal("1")})}),
		},
		{
			name:   "an unknown configured value is ignored too",
			ignore: []string{"name"},
			prior:  obj(map[string]cty.Value{"name": cty.StringVal("old")}),
			cfg:    obj(map[string]cty.Value{"name": cty.UnknownVal(cty.String)}),
			want:   obj(map[string]cty.Value{"name": cty.StringVal("old")}),
		},
		{
			name:   "a path the value does not have",
			ignore: []string{"nope", "list[5]"},
			prior:  obj(map[string]cty.Value{"list": strs("a")}),
			cfg:    obj(map[string]cty.Value{"list": strs("b")}),
			want:   obj(map[string]cty.Value{"list": strs("b")}),
		},
		{
			name:  "all",
			all:   true,
			prior: obj(map[string]cty.Value{"name": cty.StringVal("old"), "tags": smap("a", "1")}),
			cfg:   obj(map[string]cty.Value{"name": cty.StringVal("new"), "list": strs("x")}),
			want:  obj(map[string]cty.Value{"name": cty.StringVal("old"), "tags": smap("a", "1")}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lc := &config.ManagedLifecycle{IgnoreChanges: traversals(t, tt.ignore...), IgnoreAllChanges: tt.all}
			got := planner.ApplyIgnoreChanges(lc, tt.prior, tt.cfg)
			if !got.RawEquals(tt.want) {
				t.Errorf("got  %s\nwant %s", formatValue(got), formatValue(tt.want))
			}
		})
	}
}

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
