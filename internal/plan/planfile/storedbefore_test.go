package planfile

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
)

// TestDeletePriorValueKeptEncoded: a saved plan's deletes keep their prior
// values encoded until they are read, which gives them back with their
// sensitive marks; the plan saves again to the same bytes, and a damaged
// prior value is an error when the plan is read, not when it is applied.
func TestDeletePriorValueKeptEncoded(t *testing.T) {
	pc := addrs.AbsProviderConfig{Module: addrs.RootModule, Provider: addrs.NewDefaultProvider("test")}
	secret := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("id-0"), "key": cty.StringVal("hidden").Mark(marks.Sensitive),
		"ref": cty.NullVal(cty.List(cty.String)), "tags": cty.MapValEmpty(cty.String),
	})
	f := &File{Workspace: "default", Plan: &plan.Plan{Mode: plan.DestroyMode, PriorState: state.New(), PrevRunState: state.New(), Changes: []*plan.ResourceInstanceChange{{
		Addr: mustInstance(t, "test_thing.a"), ProviderConfig: pc, Action: plan.Delete,
		Before: secret, After: cty.NullVal(thingType),
	}}}}
	data, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	c := got.Plan.Changes[0]
	if !c.BeforeStored() || c.Before != cty.NilVal {
		t.Fatalf("the delete's prior value was decoded when the plan was read")
	}
	v := c.BeforeValue()
	if !v.RawEquals(secret) {
		t.Errorf("prior value %#v, want %#v", v, secret)
	}
	if !marks.Has(v.GetAttr("key")) {
		t.Errorf("the sensitive attribute lost its mark: %#v", v)
	}
	again, err := Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, data) {
		t.Errorf("saved again, the plan differs")
	}

	// A damaged prior value is found when the plan is read.
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	doc["changes"].([]any)[0].(map[string]any)["before"] = []byte{0xc1}
	bad, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Unmarshal(bad); err == nil {
		t.Errorf("a damaged prior value read without error")
	}
}
