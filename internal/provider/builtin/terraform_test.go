package builtin

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

func dataObj(id, input, output, triggers cty.Value) cty.Value {
	return dataObjStore(id, input, output, triggers, cty.NullVal(storeBlock.ImpliedType()))
}

func dataObjStore(id, input, output, triggers, store cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"id": id, "input": input, "output": output, "triggers_replace": triggers, "store": store})
}

func TestTerraformDataPlan(t *testing.T) {
	nullDyn := cty.NullVal(cty.DynamicPseudoType)
	nullID := cty.NullVal(cty.String)
	prior := dataObj(cty.StringVal("abc"), cty.StringVal("x"), cty.StringVal("x"), cty.StringVal("t1"))
	tests := []struct {
		name          string
		prior, config cty.Value
		wantReplace   bool
		wantIDKnown   bool
		wantOutKnown  bool
	}{
		{"create", cty.NullVal(DataSchema().Block.ImpliedType()), dataObj(nullID, cty.StringVal("x"), nullDyn, nullDyn), false, false, false},
		{"no change", prior, dataObj(nullID, cty.StringVal("x"), nullDyn, cty.StringVal("t1")), false, true, true},
		{"input changes: update, output unknown", prior, dataObj(nullID, cty.StringVal("y"), nullDyn, cty.StringVal("t1")), false, true, false},
		{"trigger changes: replace", prior, dataObj(nullID, cty.StringVal("x"), nullDyn, cty.StringVal("t2")), true, false, false},
	}
	p := NewTerraform()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proposed := provider.ProposedNew(DataSchema().Block, tt.prior, tt.config)
			resp := p.PlanResourceChange(context.Background(), provider.PlanRequest{TypeName: DataResourceType, PriorState: tt.prior, ProposedNewState: proposed, Config: tt.config})
			if resp.Diagnostics.HasErrors() {
				t.Fatal(resp.Diagnostics.Err())
			}
			if got := len(resp.RequiresReplace) > 0; got != tt.wantReplace {
				t.Errorf("requires replace = %v, want %v", got, tt.wantReplace)
			}
			if got := resp.PlannedState.GetAttr("id").IsKnown(); got != tt.wantIDKnown {
				t.Errorf("id known = %v, want %v", got, tt.wantIDKnown)
			}
			if got := resp.PlannedState.GetAttr("output").IsKnown(); got != tt.wantOutKnown {
				t.Errorf("output known = %v, want %v", got, tt.wantOutKnown)
			}
			applied := p.ApplyResourceChange(context.Background(), provider.ApplyRequest{TypeName: DataResourceType, PriorState: tt.prior, PlannedState: resp.PlannedState, Config: tt.config})
			if !applied.NewState.IsWhollyKnown() {
				t.Fatalf("applied object not wholly known: %#v", applied.NewState)
			}
			if !applied.NewState.GetAttr("output").RawEquals(tt.config.GetAttr("input")) {
				t.Errorf("output = %#v, want input %#v", applied.NewState.GetAttr("output"), tt.config.GetAttr("input"))
			}
		})
	}
}

func TestTerraformDataRejectsReadOnly(t *testing.T) {
	cfg := dataObj(cty.StringVal("set"), cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.DynamicPseudoType))
	if ds := NewTerraform().ValidateResourceConfig(context.Background(), DataResourceType, cfg); !ds.HasErrors() {
		t.Fatal("setting id accepted")
	}
}

// TestTerraformDataReadsTerraform116State: Terraform 1.16 records a store
// attribute on every terraform_data object, null unless its store block is
// used; OpenTofu and rig record none for an object without one. rig reads
// all three, a stored value included.
func TestTerraformDataReadsTerraform116State(t *testing.T) {
	p := NewTerraform()
	for _, raw := range []string{
		`{"id":"abc","input":null,"output":null,"store":null,"triggers_replace":null}`,
		`{"id":"abc","input":null,"output":null,"triggers_replace":null}`,
	} {
		resp := p.UpgradeResourceState(context.Background(), provider.UpgradeRequest{TypeName: DataResourceType, RawStateJSON: []byte(raw)})
		if resp.Diagnostics.HasErrors() {
			t.Fatalf("%s: %v", raw, resp.Diagnostics.Err())
		}
		if got := resp.UpgradedState.GetAttr("id"); !got.RawEquals(cty.StringVal("abc")) || !resp.UpgradedState.GetAttr("store").IsNull() {
			t.Errorf("%s: %#v, want id abc and no store", raw, resp.UpgradedState)
		}
	}
	resp := p.UpgradeResourceState(context.Background(), provider.UpgradeRequest{TypeName: DataResourceType,
		RawStateJSON: []byte(`{"id":"abc","input":null,"output":null,"store":{"input":null,"output":{"value":"v","type":"string"},"sensitive":null,"sensitive_output":null,"replace":null,"version":{"value":1,"type":"number"}},"triggers_replace":null}`)})
	if resp.Diagnostics.HasErrors() {
		t.Fatalf("an object with a stored value: %v", resp.Diagnostics.Err())
	}
	if got := resp.UpgradedState.GetAttr("store").GetAttr("output"); !got.RawEquals(cty.StringVal("v")) {
		t.Errorf("store.output = %#v, want v", got)
	}
}
