package providertest

import (
	"context"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// cfg is a test_thing configuration; empty strings are null attributes.
type cfg struct {
	key, name, value, replaceKey string
}

func (c cfg) val() cty.Value {
	s := func(v string) cty.Value {
		if v == "" {
			return cty.NullVal(cty.String)
		}
		return cty.StringVal(v)
	}
	return cty.ObjectVal(map[string]cty.Value{
		"id":          cty.NullVal(cty.String),
		"key":         s(c.key),
		"name":        s(c.name),
		"value":       s(c.value),
		"replace_key": s(c.replaceKey),
		"output":      cty.NullVal(cty.String),
		"ref":         cty.NullVal(cty.List(cty.String)),
	})
}

var nullObj = cty.NullVal(objectType)

// change plans and applies one change as the engine does: ProposedNew, plan, apply.
// A null config deletes prior. It may run outside the test's goroutine.
func change(t *testing.T, p *Provider, typeName string, prior, config cty.Value) (cty.Value, diag.Diagnostics) {
	t.Helper()
	ctx := context.Background()
	proposed := cty.NullVal(objectType)
	if !config.IsNull() {
		proposed = provider.ProposedNew(ThingSchema().Block, prior, config)
	}
	plan := p.PlanResourceChange(ctx, provider.PlanRequest{TypeName: typeName, PriorState: prior, ProposedNewState: proposed, Config: config})
	if plan.Diagnostics.HasErrors() {
		return cty.NilVal, plan.Diagnostics
	}
	resp := p.ApplyResourceChange(ctx, provider.ApplyRequest{TypeName: typeName, PriorState: prior, PlannedState: plan.PlannedState, Config: config})
	return resp.NewState, resp.Diagnostics
}

// create applies a create of c as a test_thing and fails the test on errors.
func create(t *testing.T, p *Provider, c cfg) cty.Value {
	t.Helper()
	v, ds := change(t, p, ThingType, nullObj, c.val())
	if ds.HasErrors() {
		t.Fatalf("create %v: %v", c, ds.Err())
	}
	return v
}

// wantErr fails the test unless ds has an error whose text contains want.
func wantErr(t *testing.T, ds diag.Diagnostics, want string) {
	t.Helper()
	err := ds.Err()
	if err == nil {
		t.Fatalf("no error, want one containing %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not contain %q", err, want)
	}
}

// applyCreate is the apply request of a create of c as planned by the provider.
func applyCreate(c cfg) provider.ApplyRequest {
	planned := c.val().AsValueMap()
	planned["id"] = cty.UnknownVal(cty.String)
	planned["output"] = cty.UnknownVal(cty.String)
	return provider.ApplyRequest{TypeName: ThingType, PriorState: nullObj, PlannedState: cty.ObjectVal(planned), Config: c.val()}
}

func configureRequest() provider.ConfigureRequest {
	return provider.ConfigureRequest{Config: cty.EmptyObjectVal}
}
