package builtin

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// terraform_data's store block plans and keeps as Terraform 1.16's does:
// the write-only input is kept as output (sensitive_output with
// sensitive) on create, when version changes, or without a version when
// input differs from what is kept; sensitive moves what is kept; replace
// replaces the object when a new value is kept. Every plan is valid and
// every apply completes it.
func TestTerraformDataStore(t *testing.T) {
	null := cty.NullVal(cty.DynamicPseudoType)
	nullID := cty.NullVal(cty.String)
	ty := DataSchema().Block.ImpliedType()
	store := func(input, output, sensOut, version cty.Value, sensitive, replace bool) cty.Value {
		b := func(on bool) cty.Value {
			if on {
				return cty.True
			}
			return cty.NullVal(cty.Bool)
		}
		return cty.ObjectVal(map[string]cty.Value{"input": input, "output": output, "sensitive_output": sensOut,
			"version": version, "sensitive": b(sensitive), "replace": b(replace)})
	}
	config := func(input, version cty.Value, sensitive, replace bool) cty.Value {
		return dataObjStore(nullID, null, null, null, store(input, null, null, version, sensitive, replace))
	}
	v1, v2 := cty.NumberIntVal(1), cty.NumberIntVal(2)
	kept := func(output, sensOut, version cty.Value, sensitive, replace bool) cty.Value {
		return dataObjStore(cty.StringVal("abc"), null, null, null, store(null, output, sensOut, version, sensitive, replace))
	}
	a, b := cty.StringVal("a"), cty.StringVal("b")
	tests := []struct {
		name          string
		prior, config cty.Value
		want          cty.Value // store.output after apply (sensitive_output with sensitive)
		changed       bool
		replaced      bool
	}{
		{"create", cty.NullVal(ty), config(a, v1, false, false), a, true, false},
		{"same version, new input", kept(a, null, v1, false, false), config(b, v1, false, false), a, false, false},
		{"new version", kept(a, null, v1, false, false), config(b, v2, false, false), b, true, false},
		{"no version, same input", kept(a, null, null, false, false), config(a, null, false, false), a, false, false},
		{"no version, new input", kept(a, null, null, false, false), config(b, null, false, false), b, true, false},
		{"sensitive moves what is kept", kept(a, null, v1, false, false), config(b, v1, true, false), a, true, false},
		{"new version replaces", kept(a, null, v1, false, true), config(b, v2, false, true), b, true, true},
		{"same version does not replace", kept(a, null, v1, false, true), config(b, v1, false, true), a, false, false},
	}
	p := NewTerraform()
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proposed := provider.ProposedNew(DataSchema().Block, tt.prior, tt.config)
			resp := p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: DataResourceType, PriorState: tt.prior, ProposedNewState: proposed, Config: tt.config})
			if resp.Diagnostics.HasErrors() {
				t.Fatal(resp.Diagnostics.Err())
			}
			// Checked against the configuration without its write-only
			// input, which the plan has as an untyped null, as Terraform
			// 1.16's does (so that an unchanged object plans no change).
			cfg := tt.config.AsValueMap()
			cst := cfg["store"].AsValueMap()
			cst["input"] = null
			cfg["store"] = cty.ObjectVal(cst)
			if errs := provider.AssertPlanValid(DataSchema().Block, tt.prior, cty.ObjectVal(cfg), resp.PlannedState); len(errs) > 0 {
				t.Fatalf("invalid plan %#v: %v", resp.PlannedState, errs)
			}
			if got := !resp.PlannedState.RawEquals(tt.prior); got != tt.changed {
				t.Errorf("planned a change: %v, want %v (%#v)", got, tt.changed, resp.PlannedState)
			}
			if got := len(resp.RequiresReplace) > 0; got != tt.replaced {
				t.Errorf("requires replacement: %v, want %v", resp.RequiresReplace, tt.replaced)
			}
			if !resp.PlannedState.GetAttr("store").GetAttr("input").IsNull() {
				t.Error("the planned store.input is not null: it is write-only")
			}
			applied := p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: DataResourceType, PriorState: tt.prior, PlannedState: resp.PlannedState, Config: tt.config})
			if errs := provider.AssertObjectCompatible(DataSchema().Block, resp.PlannedState, applied.NewState); len(errs) > 0 {
				t.Fatalf("the new object does not complete the plan: %v", errs)
			}
			st := applied.NewState.GetAttr("store")
			got, other := st.GetAttr("output"), st.GetAttr("sensitive_output")
			if st.GetAttr("sensitive").True() {
				got, other = other, got
			}
			if !got.RawEquals(tt.want) || !other.IsNull() {
				t.Errorf("kept %#v (other output %#v), want %#v", got, other, tt.want)
			}
		})
	}

	// sensitive and replace decide the plan: they must be known.
	unknown := dataObjStore(nullID, null, null, null, cty.ObjectVal(map[string]cty.Value{"input": a, "output": null, "sensitive_output": null,
		"version": null, "sensitive": cty.UnknownVal(cty.Bool), "replace": cty.NullVal(cty.Bool)}))
	proposed := provider.ProposedNew(DataSchema().Block, cty.NullVal(ty), unknown)
	if resp := p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: DataResourceType, PriorState: cty.NullVal(ty), ProposedNewState: proposed, Config: unknown}); !resp.Diagnostics.HasErrors() {
		t.Error("an unknown store.sensitive was planned")
	}
}
