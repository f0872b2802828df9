package ui

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/golden"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// mixedPlan has one change of every kind, and output changes.
func mixedPlan() *plan.Plan {
	unknownStr := cty.UnknownVal(cty.String)
	return &plan.Plan{
		Mode:      plan.NormalMode,
		Timestamp: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
		Variables: map[string]cty.Value{"env": cty.StringVal("dev")},
		Changes: []*plan.ResourceInstanceChange{
			{ // create, with a dynamic object input
				Addr: managed("terraform_data", "a", addrs.NoKey), ProviderConfig: builtinConfig, Action: plan.Create,
				Before: cty.NullVal(dataType()),
				After: dataVal(map[string]cty.Value{
					"id":     unknownStr,
					"input":  cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("web"), "size": cty.NumberIntVal(3), "extra": cty.NullVal(cty.String), "list": cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.True})}),
					"output": cty.UnknownVal(cty.DynamicPseudoType),
				}),
			},
			{ // update in place
				Addr: managed("terraform_data", "b", addrs.NoKey), ProviderConfig: builtinConfig, Action: plan.Update,
				Before: dataVal(map[string]cty.Value{"id": cty.StringVal("b-id"), "input": cty.StringVal("x"), "output": cty.StringVal("x"), "triggers_replace": cty.StringVal("t")}),
				After:  dataVal(map[string]cty.Value{"id": cty.StringVal("b-id"), "input": cty.StringVal("y"), "output": cty.UnknownVal(cty.DynamicPseudoType), "triggers_replace": cty.StringVal("t")}),
			},
			{ // replace, delete first, dynamic trigger
				Addr: managed("terraform_data", "c", addrs.IntKey(0)), ProviderConfig: builtinConfig, Action: plan.DeleteThenCreate, Reason: plan.ReplaceBecauseCannotUpdate,
				Before:          dataVal(map[string]cty.Value{"id": cty.StringVal("c-id"), "triggers_replace": cty.StringVal("v1")}),
				After:           dataVal(map[string]cty.Value{"id": unknownStr, "triggers_replace": cty.StringVal("v2")}),
				RequiredReplace: []cty.Path{cty.GetAttrPath("triggers_replace")},
			},
			{ // object only in state
				Addr: managed("terraform_data", "gone", addrs.NoKey), ProviderConfig: builtinConfig, Action: plan.Delete, Reason: plan.DeleteBecauseNoResourceConfig,
				Before: dataVal(map[string]cty.Value{"id": cty.StringVal("gone-id"), "input": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), "output": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})}),
				After:  cty.NullVal(dataType()),
			},
			{ // index beyond count
				Addr: managed("terraform_data", "c", addrs.IntKey(1)), ProviderConfig: builtinConfig, Action: plan.Delete, Reason: plan.DeleteBecauseCountIndex,
				Before: dataVal(map[string]cty.Value{"id": cty.StringVal("c1-id")}),
				After:  cty.NullVal(dataType()),
			},
			{ // deposed object left by a failed create_before_destroy
				Addr: managed("terraform_data", "d", addrs.NoKey), Deposed: "abc12345", ProviderConfig: builtinConfig, Action: plan.Delete,
				Before: dataVal(map[string]cty.Value{"id": cty.StringVal("d-old"), "input": cty.StringVal("old")}),
				After:  cty.NullVal(dataType()),
			},
			{ // replace, create first, typed attributes forcing replacement
				Addr: managed("test_instance", "web", addrs.StringKey("blue")), ProviderConfig: testConfig, Action: plan.CreateThenDelete, Reason: plan.ReplaceBecauseCannotUpdate,
				CreateBeforeDestroy: true, SchemaVersion: 1,
				Before: instanceVal(map[string]cty.Value{
					"id": cty.StringVal("i-123"), "ami": cty.StringVal("ami-1"), "password": cty.StringVal("hunter2"),
					"tags":   cty.MapVal(map[string]cty.Value{"Name": cty.StringVal("web"), "Env": cty.StringVal("dev")}),
					"ports":  cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(443)}),
					"policy": cty.StringVal(`{"Version":"2012","Statement":[{"Effect":"Allow"}]}`),
					"disk":   cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(10)})}),
				}),
				After: instanceVal(map[string]cty.Value{
					"id": unknownStr, "ami": cty.StringVal("ami-2"), "password": cty.StringVal("hunter3"),
					"tags":   cty.MapVal(map[string]cty.Value{"Name": cty.StringVal("web"), "Env": cty.StringVal("prod")}),
					"ports":  cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(8443)}),
					"policy": cty.StringVal(`{"Version":"2012","Statement":[{"Effect":"Deny"}]}`),
					"disk":   cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(20)})}),
				}),
				RequiredReplace: []cty.Path{cty.GetAttrPath("ami")},
			},
			{ // tainted
				Addr: managed("terraform_data", "t", addrs.NoKey), ProviderConfig: builtinConfig, Action: plan.DeleteThenCreate, Reason: plan.ReplaceBecauseTainted,
				Before: dataVal(map[string]cty.Value{"id": cty.StringVal("t-id")}),
				After:  dataVal(map[string]cty.Value{"id": unknownStr}),
			},
			{ // unchanged: not shown
				Addr: managed("terraform_data", "same", addrs.NoKey), ProviderConfig: builtinConfig, Action: plan.NoOp,
				Before: dataVal(map[string]cty.Value{"id": cty.StringVal("same-id")}),
				After:  dataVal(map[string]cty.Value{"id": cty.StringVal("same-id")}),
			},
		},
		Outputs: map[string]*plan.OutputChange{
			"new":     {Action: plan.Create, Before: cty.NullVal(cty.DynamicPseudoType), After: cty.StringVal("v")},
			"changed": {Action: plan.Update, Before: cty.StringVal("a"), After: cty.StringVal("b")},
			"removed": {Action: plan.Delete, Before: cty.StringVal("v"), After: cty.NullVal(cty.DynamicPseudoType)},
			"later":   {Action: plan.Create, Before: cty.NullVal(cty.DynamicPseudoType), After: cty.UnknownVal(cty.String)},
			"secret":  {Action: plan.Create, Before: cty.NullVal(cty.DynamicPseudoType), After: cty.StringVal("s"), Sensitive: true},
			"same":    {Action: plan.NoOp, Before: cty.StringVal("s"), After: cty.StringVal("s")},
		},
		PriorState: priorState(),
	}
}

func priorState() *state.State {
	s := state.New()
	s.Lineage = "00000000-0000-4000-8000-000000000000"
	s.Serial = 3
	s.TerraformVersion = "1.10.0"
	put := func(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, pc addrs.AbsProviderConfig, ty cty.Type, v cty.Value) *state.Object {
		obj, err := state.NewObject(v, ty)
		if err != nil {
			panic(err)
		}
		s.SetObject(addrs.ObjectAddr{Instance: addr, Deposed: dk}, obj, pc)
		return obj
	}
	put(managed("terraform_data", "b", addrs.NoKey), "", builtinConfig, dataType(),
		dataVal(map[string]cty.Value{"id": cty.StringVal("b-id"), "input": cty.StringVal("x"), "output": cty.StringVal("x"), "triggers_replace": cty.StringVal("t")}))
	c := put(managed("terraform_data", "c", addrs.IntKey(0)), "", builtinConfig, dataType(),
		dataVal(map[string]cty.Value{"id": cty.StringVal("c-id"), "triggers_replace": cty.StringVal("v1")}))
	c.Dependencies = []addrs.AbsResource{managed("terraform_data", "b", addrs.NoKey).ContainingResource()}
	put(managed("terraform_data", "d", addrs.NoKey), "abc12345", builtinConfig, dataType(),
		dataVal(map[string]cty.Value{"id": cty.StringVal("d-old"), "input": cty.StringVal("old")}))
	t := put(managed("terraform_data", "t", addrs.NoKey), "", builtinConfig, dataType(), dataVal(map[string]cty.Value{"id": cty.StringVal("t-id")}))
	t.Status = state.Tainted
	w := put(managed("test_instance", "web", addrs.StringKey("blue")), "", testConfig, instanceSchema().Block.ImpliedType(), instanceVal(map[string]cty.Value{
		"id": cty.StringVal("i-123"), "ami": cty.StringVal("ami-1"), "password": cty.StringVal("hunter2"),
		"tags": cty.MapVal(map[string]cty.Value{"Name": cty.StringVal("web")}),
	}))
	w.SchemaVersion = 1
	s.Outputs["changed"] = state.OutputValue{Value: cty.StringVal("a")}
	s.Outputs["secret"] = state.OutputValue{Value: cty.StringVal("s"), Sensitive: true}
	return s
}

func TestRenderPlan(t *testing.T) {
	destroy := &plan.Plan{Mode: plan.DestroyMode}
	for _, name := range []string{"a", "b", "c"} {
		destroy.Changes = append(destroy.Changes, &plan.ResourceInstanceChange{
			Addr: managed("terraform_data", name, addrs.NoKey), ProviderConfig: builtinConfig, Action: plan.Delete,
			Before: dataVal(map[string]cty.Value{"id": cty.StringVal(name + "-id"), "input": cty.StringVal(name)}),
			After:  cty.NullVal(dataType()),
		})
	}
	noChanges := &plan.Plan{Changes: []*plan.ResourceInstanceChange{{
		Addr: managed("terraform_data", "a", addrs.NoKey), ProviderConfig: builtinConfig, Action: plan.NoOp,
		Before: dataVal(map[string]cty.Value{"id": cty.StringVal("a-id")}), After: dataVal(map[string]cty.Value{"id": cty.StringVal("a-id")}),
	}}}
	tests := []struct {
		name    string
		plan    *plan.Plan
		schemas SchemaSource
		opts    RenderOptions
	}{
		{"plan_mixed.golden", mixedPlan(), testSchemas(), RenderOptions{}},
		{"plan_mixed_color.golden", mixedPlan(), testSchemas(), RenderOptions{Color: true}},
		{"plan_mixed_noschema.golden", mixedPlan(), nil, RenderOptions{}},
		{"plan_nochanges.golden", noChanges, testSchemas(), RenderOptions{}},
		{"plan_nochanges_destroy.golden", &plan.Plan{Mode: plan.DestroyMode}, testSchemas(), RenderOptions{}},
		{"plan_destroy.golden", destroy, testSchemas(), RenderOptions{}},
		{"plan_outputs_only.golden", &plan.Plan{Outputs: map[string]*plan.OutputChange{
			"greeting": {Action: plan.Update, Before: cty.StringVal("hi"), After: cty.ObjectVal(map[string]cty.Value{"text": cty.StringVal("hello")})},
		}}, nil, RenderOptions{}},
		{"plan_errored.golden", &plan.Plan{Errored: true}, nil, RenderOptions{}},
		// A plan that failed cannot be applied: it does not offer to save its outputs.
		{"plan_outputs_only_errored.golden", &plan.Plan{Errored: true, Outputs: map[string]*plan.OutputChange{
			"ports": {Action: plan.Create, Before: cty.NullVal(cty.DynamicPseudoType), After: cty.UnknownVal(cty.DynamicPseudoType)},
		}}, nil, RenderOptions{}},
		{"plan_data_reads.golden", dataReadsPlan(), nil, RenderOptions{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := RenderPlan(&buf, tt.plan, tt.schemas, tt.opts); err != nil {
				t.Fatal(err)
			}
			if !tt.opts.Color && bytes.Contains(buf.Bytes(), []byte("\x1b")) {
				t.Error("escape sequence in uncolored output")
			}
			golden.Check(t, filepath.Join("testdata", tt.name), buf.Bytes())
		})
	}
}

// dataReadsPlan reads a data source during apply for each reason OpenTofu
// gives: configuration unknown, a dependency's change pending, a check
// block's data source.
func dataReadsPlan() *plan.Plan {
	read := func(name string, reason plan.ActionReason) *plan.ResourceInstanceChange {
		addr := addrs.Resource{Mode: addrs.Data, Type: "terraform_remote_state", Name: name}.Absolute(addrs.RootModule).Instance(addrs.NoKey)
		ty := cty.Object(map[string]cty.Type{"backend": cty.String, "outputs": cty.DynamicPseudoType})
		return &plan.ResourceInstanceChange{Addr: addr, ProviderConfig: builtinConfig, Action: plan.Read, Reason: reason,
			Before: cty.NullVal(ty), After: cty.ObjectVal(map[string]cty.Value{"backend": cty.StringVal("local"), "outputs": cty.DynamicVal})}
	}
	return &plan.Plan{Changes: []*plan.ResourceInstanceChange{
		read("unknown", plan.ReasonReadConfigUnknown),
		read("pending", plan.ReasonReadDependencyPending),
		read("checked", plan.ReadBecauseCheckNested),
	}}
}
