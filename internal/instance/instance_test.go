package instance_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/zclconf/go-cty/cty"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/instance"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider/providertest"
)

var (
	thingA = addrs.AbsResourceInstance{Resource: addrs.ResourceInstance{
		Resource: addrs.Resource{Mode: addrs.Managed, Type: providertest.ThingType, Name: "a"}}}
	testPC = addrs.AbsProviderConfig{Provider: providertest.Address()}
)

// fixture is test_thing.a of a configuration, with its evaluator.
type fixture struct {
	res  *config.Resource
	eval *eval.Evaluator
}

func load(t *testing.T, src string) fixture {
	t.Helper()
	cfg, ds := config.LoadTreeFS(fstest.MapFS{"main.tf": {Data: []byte(src)}}, config.TreeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	ev, ds := eval.New(context.Background(), eval.Options{Config: cfg})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	r := cfg.ConfigResource(addrs.ConfigResource{Resource: thingA.Resource.Resource})
	if r == nil {
		t.Fatal("no test_thing.a in the configuration")
	}
	return fixture{res: r, eval: ev}
}

// thing is a test_thing object as the provider records it.
func thing(id, key, value, replaceKey string) cty.Value {
	str := func(s string) cty.Value {
		if s == "" {
			return cty.NullVal(cty.String)
		}
		return cty.StringVal(s)
	}
	return cty.ObjectVal(map[string]cty.Value{
		"id": str(id), "key": str(key), "name": cty.NullVal(cty.String), "value": str(value),
		"replace_key": str(replaceKey), "output": str(value), "ref": cty.NullVal(cty.List(cty.String)),
	})
}

func TestPlanActions(t *testing.T) {
	const thingSrc = `
resource "test_thing" "a" {
  key         = "a"
  value       = "v2"
  replace_key = "r1"
%s
}
`
	tests := []struct {
		name       string
		lifecycle  string
		prior      cty.Value
		tainted    bool
		replace    bool
		cbd        bool
		trigger    bool
		wantAction plan.Action
		wantReason plan.ActionReason
		// wantPreventDestroy says the plan asks whether the prior object may be destroyed.
		wantPreventDestroy bool
	}{
		{name: "no prior object", wantAction: plan.Create},
		{name: "unchanged", prior: thing("id-1", "a", "v2", "r1"), wantAction: plan.NoOp},
		{name: "value changed", prior: thing("id-1", "a", "v1", "r1"), wantAction: plan.Update},
		{name: "ignored change", lifecycle: "lifecycle {\n ignore_changes = [value]\n}", prior: thing("id-1", "a", "v1", "r1"), wantAction: plan.NoOp},
		{name: "forces replacement", prior: thing("id-1", "a", "v2", "r0"), wantAction: plan.DeleteThenCreate, wantReason: plan.ReplaceBecauseCannotUpdate, wantPreventDestroy: true},
		{name: "create before destroy", prior: thing("id-1", "a", "v2", "r0"), cbd: true, wantAction: plan.CreateThenDelete, wantReason: plan.ReplaceBecauseCannotUpdate, wantPreventDestroy: true},
		{name: "tainted", prior: thing("id-1", "a", "v2", "r1"), tainted: true, wantAction: plan.DeleteThenCreate, wantReason: plan.ReplaceBecauseTainted, wantPreventDestroy: true},
		{name: "tainted ignores ignore_changes", lifecycle: "lifecycle {\n ignore_changes = all\n}", prior: thing("id-1", "a", "v1", "r1"), tainted: true, wantAction: plan.DeleteThenCreate, wantReason: plan.ReplaceBecauseTainted, wantPreventDestroy: true},
		{name: "-replace", prior: thing("id-1", "a", "v2", "r1"), replace: true, wantAction: plan.DeleteThenCreate, wantReason: plan.ReplaceByRequest, wantPreventDestroy: true},
		// OpenTofu 1.12 gives a create its trigger's reason in the JSON plan.
		{name: "create triggered", trigger: true, wantAction: plan.Create, wantReason: plan.ReplaceByTriggers},
		{name: "replace_triggered_by first", prior: thing("id-1", "a", "v2", "r0"), trigger: true, replace: true, wantAction: plan.DeleteThenCreate, wantReason: plan.ReplaceByTriggers, wantPreventDestroy: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := load(t, strings.Replace(thingSrc, "%s", tt.lifecycle, 1))
			prov := providertest.New()
			asked := false
			req := instance.PlanRequest{
				Addr: thingA, Resource: fx.res, Schema: providertest.ThingSchema(), Provider: prov, ProviderConfig: testPC,
				Eval: fx.eval, Prior: tt.prior, Tainted: tt.tainted, Replace: tt.replace, CreateBeforeDestroy: tt.cbd,
				Lifecycle: &fakeLifecycle{trigger: tt.trigger, asked: &asked},
			}
			change, ds := instance.Plan(context.Background(), req)
			if ds.HasErrors() || change == nil {
				t.Fatalf("Plan: %v", ds.Err())
			}
			if change.Action != tt.wantAction || change.Reason != tt.wantReason {
				t.Errorf("action %s (reason %v), want %s (reason %v)", change.Action, change.Reason, tt.wantAction, tt.wantReason)
			}
			if asked != tt.wantPreventDestroy {
				t.Errorf("prevent_destroy checked: %v, want %v", asked, tt.wantPreventDestroy)
			}
			if got := change.After.GetAttr("value"); tt.wantAction != plan.NoOp && !got.RawEquals(cty.StringVal("v2")) {
				t.Errorf("planned value %#v, want the configured v2", got)
			}
		})
	}
}

// fakeLifecycle fires a trigger when told to and records whether
// prevent_destroy was asked about.
type fakeLifecycle struct {
	trigger bool
	asked   *bool
}

func (f *fakeLifecycle) ReplaceTriggered(*config.Resource, *lang.Scope, addrs.AbsResourceInstance) (*plan.Trigger, diag.Diagnostics) {
	if f.trigger {
		return &plan.Trigger{}, nil
	}
	return nil, nil
}

func (f *fakeLifecycle) PreventDestroy(*config.Resource, addrs.AbsResourceInstance) diag.Diagnostics {
	*f.asked = true
	return nil
}

func TestPlanStopsAtFailedPrecondition(t *testing.T) {
	fx := load(t, `
locals {
  ready = false
}

resource "test_thing" "a" {
  key = "a"
  lifecycle {
    precondition {
      condition     = local.ready
      error_message = "Never."
    }
  }
}
`)
	prov := providertest.New()
	change, ds := instance.Plan(context.Background(), instance.PlanRequest{
		Addr: thingA, Resource: fx.res, Schema: providertest.ThingSchema(), Provider: prov, ProviderConfig: testPC, Eval: fx.eval})
	if change != nil || !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "Never.") {
		t.Fatalf("got change %v and %v, want no change and the precondition's error", change, ds.Err())
	}
}

func TestApplyOutcomes(t *testing.T) {
	const src = `
resource "test_thing" "a" {
  key   = "a"
  value = "v"
}
`
	tests := []struct {
		name  string
		fault func(*providertest.Provider)
		cbd   bool
		// savedValue is the value the saved plan has for value ("v" when empty).
		savedValue  string
		wantOutcome instance.Outcome
		wantStatus  string
		wantFailed  bool
		wantDeposed bool
		wantError   string
	}{
		{name: "created", wantOutcome: instance.RecordObject, wantStatus: "ready"},
		{name: "create failed", fault: func(p *providertest.Provider) { p.FailOn("a", providertest.Create, 1) },
			wantOutcome: instance.RemoveObject, wantFailed: true, wantError: "Injected failure"},
		{name: "create failed after creating", fault: func(p *providertest.Provider) { p.FailOnPartial("a", providertest.Create) },
			wantOutcome: instance.RecordObject, wantStatus: "tainted", wantFailed: true, wantError: "Injected partial failure"},
		{name: "create-first create failed", cbd: true, fault: func(p *providertest.Provider) { p.FailOn("a", providertest.Create, 1) },
			wantOutcome: instance.RestoreDeposed, wantFailed: true, wantDeposed: true, wantError: "Injected failure"},
		{name: "final plan differs from the saved one", savedValue: "other",
			wantOutcome: instance.NotApplied, wantError: "Provider produced inconsistent final plan"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := load(t, src)
			prov := providertest.New()
			if tt.fault != nil {
				tt.fault(prov)
			}
			saved := "v"
			if tt.savedValue != "" {
				saved = tt.savedValue
			}
			ty := providertest.ThingSchema().Block.ImpliedType()
			after := thing("", "a", saved, "")
			after = cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "key": after.GetAttr("key"), "name": after.GetAttr("name"),
				"value": after.GetAttr("value"), "replace_key": after.GetAttr("replace_key"), "output": cty.UnknownVal(cty.String), "ref": after.GetAttr("ref")})
			action := plan.Create
			if tt.cbd {
				action = plan.CreateThenDelete
			}
			c := &plan.ResourceInstanceChange{Addr: thingA, ProviderConfig: testPC, Action: action, Before: cty.NullVal(ty), After: after}
			cfg, ds := instance.EvalConfig(fx.eval.Scope(addrs.RootModule, lang.InstanceData{}), fx.res, providertest.ThingSchema(), testPC)
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			deposed := false
			req := instance.ApplyRequest{Change: c, Resource: fx.res, Schema: providertest.ThingSchema(), Provider: prov, Config: cfg}
			if tt.cbd {
				req.Depose = func() diag.Diagnostics { deposed = true; return nil }
			}
			got, ds := instance.Apply(context.Background(), req)
			if got.Outcome != tt.wantOutcome || got.Failed != tt.wantFailed || deposed != tt.wantDeposed {
				t.Errorf("outcome %d, failed %v, deposed %v; want %d, %v, %v", got.Outcome, got.Failed, deposed, tt.wantOutcome, tt.wantFailed, tt.wantDeposed)
			}
			if got.Outcome == instance.RecordObject && got.Status.String() != tt.wantStatus {
				t.Errorf("recorded %s, want %s", got.Status, tt.wantStatus)
			}
			switch {
			case tt.wantError == "" && ds.HasErrors():
				t.Errorf("unexpected error: %v", ds.Err())
			case tt.wantError != "" && (!ds.HasErrors() || !strings.Contains(ds.Err().Error(), tt.wantError)):
				t.Errorf("got %v, want an error with %q", ds.Err(), tt.wantError)
			}
			if tt.wantOutcome == instance.RecordObject && got.NewState.GetAttr("id").IsNull() {
				t.Errorf("recorded object has no id: %#v", got.NewState)
			}
		})
	}
}
