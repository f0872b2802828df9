package builtin

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/marks"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// TestTerraformDataChecked: terraform_data's answers say Checked, so the
// engine does not check them; every planned object it returns is a valid
// plan and every new object completes its planned one, as the engine
// checks a plugin's answers.
func TestTerraformDataChecked(t *testing.T) {
	nullDyn := cty.NullVal(cty.DynamicPseudoType)
	nullID := cty.NullVal(cty.String)
	ty := DataSchema().Block.ImpliedType()
	object := cty.ObjectVal(map[string]cty.Value{
		"value": cty.StringVal("v"),
		"refs":  cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"n":     cty.NumberIntVal(3),
	})
	unknownRefs := cty.ObjectVal(map[string]cty.Value{
		"value": cty.StringVal("v"),
		"refs":  cty.TupleVal([]cty.Value{cty.UnknownVal(cty.String).RefineNotNull(), cty.StringVal("b")}),
	})
	prior := dataObj(cty.StringVal("abc"), object, object, cty.StringVal("t1"))
	tests := []struct {
		name          string
		prior, config cty.Value
	}{
		{"create", cty.NullVal(ty), dataObj(nullID, object, nullDyn, cty.StringVal("t1"))},
		{"create, no input", cty.NullVal(ty), dataObj(nullID, nullDyn, nullDyn, nullDyn)},
		{"create, input not yet known", cty.NullVal(ty), dataObj(nullID, unknownRefs, nullDyn, nullDyn)},
		{"create, sensitive input", cty.NullVal(ty), dataObj(nullID, cty.StringVal("s").Mark(marks.Sensitive), nullDyn, nullDyn)},
		{"no change", prior, dataObj(nullID, object, nullDyn, cty.StringVal("t1"))},
		{"input changes", prior, dataObj(nullID, cty.StringVal("y"), nullDyn, cty.StringVal("t1"))},
		{"input removed", prior, dataObj(nullID, nullDyn, nullDyn, cty.StringVal("t1"))},
		{"input not yet known", prior, dataObj(nullID, unknownRefs, nullDyn, cty.StringVal("t1"))},
		{"trigger changes", prior, dataObj(nullID, object, nullDyn, cty.StringVal("t2"))},
		{"trigger not yet known", prior, dataObj(nullID, object, nullDyn, cty.UnknownVal(cty.String))},
		{"delete", prior, cty.NullVal(ty)},
	}
	p := NewTerraform()
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			config, _ := tt.config.UnmarkDeep()
			proposed := provider.ProposedNew(DataSchema().Block, tt.prior, config)
			resp := p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: DataResourceType, PriorState: tt.prior, ProposedNewState: proposed, Config: config})
			if resp.Diagnostics.HasErrors() {
				t.Fatal(resp.Diagnostics.Err())
			}
			if !resp.Checked {
				t.Errorf("the plan is not marked Checked")
			}
			if errs := provider.AssertPlanValid(DataSchema().Block, tt.prior, tt.config, resp.PlannedState); len(errs) > 0 {
				t.Errorf("invalid plan %#v: %v", resp.PlannedState, errs)
			}
			if !config.IsWhollyKnown() {
				return // planned again once the configuration is known
			}
			applied := p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: DataResourceType, PriorState: tt.prior, PlannedState: resp.PlannedState, Config: config})
			if applied.Diagnostics.HasErrors() {
				t.Fatal(applied.Diagnostics.Err())
			}
			if !applied.Checked {
				t.Errorf("the new object is not marked Checked")
			}
			if errs := provider.AssertObjectCompatible(DataSchema().Block, resp.PlannedState, applied.NewState); len(errs) > 0 {
				t.Errorf("new object %#v does not complete the plan %#v: %v", applied.NewState, resp.PlannedState, errs)
			}
		})
	}
}
