package plan

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/zclconf/go-cty/cty"
)

func reasonRes(name string) addrs.AbsResource {
	return addrs.Resource{Mode: addrs.Managed, Type: "terraform_data", Name: name}.Absolute(addrs.RootModule)
}

// TestReasons checks the reasons each kind of change gives, as the JSON plan
// and rig explain show them.
func TestReasons(t *testing.T) {
	obj := func(input string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x"), "input": cty.StringVal(input)})
	}
	inst := func(name string) addrs.AbsResourceInstance { return reasonRes(name).Instance(addrs.NoKey) }
	chain := []*ResourceInstanceChange{
		{Addr: inst("d"), Action: CreateThenDelete, Reason: ReplaceBecauseCannotUpdate, CreateBeforeDestroy: true,
			RequiredReplace: []cty.Path{cty.GetAttrPath("input")}},
		{Addr: inst("c"), Action: NoOp, CreateBeforeDestroy: true, CBDInheritedFrom: reasonRes("d"), CBDVia: reasonRes("d")},
		{Addr: inst("b"), Action: Update, Before: obj("1"), After: obj("2"), CreateBeforeDestroy: true, CBDInheritedFrom: reasonRes("d"), CBDVia: reasonRes("c")},
		{Addr: inst("a"), Action: Delete, Deposed: "1a2b3c4d"},
		{Addr: inst("m"), Action: NoOp, PrevRunAddr: inst("old")},
		{Addr: inst("t"), Action: DeleteThenCreate, Reason: ReplaceByTriggers, Trigger: &Trigger{Changed: inst("b"), Path: cty.GetAttrPath("input")}},
	}
	tests := []struct {
		name string
		mode Mode
		addr addrs.AbsResourceInstance
		want []string
	}{
		{"own create_before_destroy", NormalMode, inst("d"), []string{"changing input requires replacement", "its lifecycle sets create_before_destroy"}},
		{"inherited along a path", NormalMode, inst("b"), []string{"the configuration changed: input",
			"create_before_destroy is inherited from terraform_data.d (terraform_data.d → terraform_data.c → terraform_data.b)"}},
		{"deposed object", NormalMode, inst("a"), []string{"it is a deposed object left by an earlier run"}},
		{"moved", NormalMode, inst("m"), []string{"it moved from terraform_data.old"}},
		{"replace_triggered_by", NormalMode, inst("t"), []string{"replace_triggered_by: terraform_data.b.input changes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := NewReasonIndex(&Plan{Mode: tt.mode, Changes: chain})
			var got []string
			for _, c := range chain {
				if c.Addr == tt.addr {
					for _, r := range x.Reasons(c) {
						got = append(got, r.String())
					}
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCBDPathCutShort: a path whose middle has no planned change is given
// as the source and the object's resource.
func TestCBDPathCutShort(t *testing.T) {
	c := &ResourceInstanceChange{Addr: reasonRes("a").Instance(addrs.NoKey), CreateBeforeDestroy: true,
		CBDInheritedFrom: reasonRes("z"), CBDVia: reasonRes("missing")}
	got := NewReasonIndex(&Plan{Changes: []*ResourceInstanceChange{c}}).CBDPath(c)
	if diff := cmp.Diff([]addrs.AbsResource{reasonRes("z"), reasonRes("a")}, got); diff != "" {
		t.Errorf("CBDPath (-want +got):\n%s", diff)
	}
}
