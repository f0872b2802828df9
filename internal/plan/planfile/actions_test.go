package planfile

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/zclconf/go-cty/cty"
)

// A saved plan keeps its action invocations: triggered ones with their
// trigger, an invoked one, a configuration with unknown and sensitive
// values, and none at all leaves no trace in the file.
func TestActionInvocationsRoundTrip(t *testing.T) {
	pc, err := addrs.ParseAbsProviderConfig(`provider["registry.terraform.io/rig/test"]`)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := addrs.ParseAbsResourceInstanceStr(`module.m["x"].test_thing.a[1]`)
	p := &plan.Plan{Timestamp: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), ActionInvocations: []*plan.ActionInvocation{
		{Addr: addrs.Action{Type: "test_log", Name: "now"}.Instance(addrs.RootModule, addrs.NoKey), ProviderConfig: pc,
			Config: cty.ObjectVal(map[string]cty.Value{"message": cty.StringVal("hi")})},
		{Addr: addrs.Action{Type: "test_log", Name: "each"}.Instance(`module.m["x"]`, addrs.StringKey("k")), ProviderConfig: pc,
			Config:  cty.ObjectVal(map[string]cty.Value{"message": cty.StringVal("secret").Mark(marks.Sensitive)}),
			Trigger: &plan.ActionTrigger{Resource: res, Event: config.BeforeUpdate, BlockIndex: 1, ActionIndex: 2, OnFailure: config.OnFailureContinue}},
		{Addr: addrs.Action{Type: "test_log", Name: "later"}.Instance(`module.m["x"]`, addrs.IntKey(0)), ProviderConfig: pc,
			Config:  cty.ObjectVal(map[string]cty.Value{"message": cty.UnknownVal(cty.String)}),
			Trigger: &plan.ActionTrigger{Resource: res, Event: config.AfterDestroy, OnFailure: config.OnFailureTaint}},
	}}
	data, err := Marshal(&File{Plan: p, Workspace: "default"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(p.ActionInvocations, got.Plan.ActionInvocations, planOpts); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}

	none, err := Marshal(&File{Plan: &plan.Plan{Timestamp: p.Timestamp}, Workspace: "default"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(none, []byte("action_invocations")) {
		t.Errorf("a plan without actions mentions them:\n%s", none)
	}
}
