package providertest

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rig-iac/rig/internal/provider"
)

// test_secret fills in its sensitive password on create, keeps it on
// update, and stores its sensitive token and credential pins; its schema
// says which attributes are sensitive.
func TestSecretType(t *testing.T) {
	ctx := context.Background()
	p := New()
	blk := SecretSchema().Block
	ty := blk.ImpliedType()
	config := func(value string) cty.Value {
		attrs := map[string]cty.Value{}
		for name, aty := range ty.AttributeTypes() {
			attrs[name] = cty.NullVal(aty)
		}
		attrs["key"], attrs["value"], attrs["token"] = cty.StringVal("a"), cty.StringVal(value), cty.StringVal("tok")
		attrs["credential"] = cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"user": cty.StringVal("u"), "pin": cty.StringVal("1234")})})
		v, err := convert.Convert(cty.ObjectVal(attrs), ty)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	apply := func(prior, cfg cty.Value) cty.Value {
		t.Helper()
		proposed := provider.ProposedNew(blk, prior, cfg)
		plan := p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: SecretType, PriorState: prior, ProposedNewState: proposed, Config: cfg})
		if plan.Diagnostics.HasErrors() {
			t.Fatal(plan.Diagnostics.Err())
		}
		if errs := provider.AssertPlanValid(blk, prior, cfg, plan.PlannedState); len(errs) > 0 {
			t.Fatalf("invalid plan: %v", errs)
		}
		if prior.IsNull() && plan.PlannedState.GetAttr("password").IsKnown() {
			t.Errorf("a create plans the password known: %#v", plan.PlannedState)
		}
		resp := p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: SecretType, PriorState: prior, PlannedState: plan.PlannedState, Config: cfg})
		if resp.Diagnostics.HasErrors() {
			t.Fatal(resp.Diagnostics.Err())
		}
		return resp.NewState
	}
	created := apply(cty.NullVal(ty), config("one"))
	if got := created.GetAttr("password"); !got.RawEquals(cty.StringVal("s3cr3t-id-1")) {
		t.Errorf("password after create = %#v, want s3cr3t-id-1", got)
	}
	updated := apply(created, config("two"))
	if got := updated.GetAttr("password"); !got.RawEquals(cty.StringVal("s3cr3t-id-1")) {
		t.Errorf("password after update = %#v, want it kept", got)
	}
	if got := p.Ops(); len(got) != 2 || got[1].Action != Update {
		t.Errorf("operations %+v, want a create and an update", got)
	}
	want := []cty.Path{
		cty.GetAttrPath("password"), cty.GetAttrPath("token"),
		cty.GetAttrPath("credential").IndexInt(0).GetAttr("pin"),
	}
	if diff := cmp.Diff(want, blk.SensitivePaths(updated), cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) })); diff != "" {
		t.Errorf("sensitive paths (-want +got):\n%s", diff)
	}
}
