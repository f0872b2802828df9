package instance

import (
	"context"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/checks"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/eval"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// PlanRequest is what Plan needs of one configured resource instance.
type PlanRequest struct {
	Addr           addrs.AbsResourceInstance
	Resource       *config.Resource
	Schema         provider.Schema
	Provider       provider.Interface
	ProviderConfig addrs.AbsProviderConfig
	// Eval evaluates the configuration in the instance's module instance,
	// with Instance's count.index or each; Providers is the run's set, for
	// provider_meta.
	Eval      *eval.Evaluator
	Providers *provider.Set
	Instance  lang.InstanceData
	// Checks receives the results of the resource's conditions (nil in a
	// destroy plan).
	Checks *checks.State

	// Prior is the current object without marks (upgraded and refreshed,
	// or imported), null when there is none; PriorPrivate its private
	// data; PriorSensitive the paths state records as sensitive.
	Prior          cty.Value
	PriorPrivate   []byte
	PriorSensitive []cty.Path
	// PriorIdentity is the current object's resource identity (cty.NilVal
	// when the type declares none, null when there is no object).
	PriorIdentity cty.Value
	// Tainted says the current object is tainted: it is replaced, and
	// ignore_changes does not apply.
	Tainted bool
	// Replace says -replace names the instance.
	Replace bool
	// CreateBeforeDestroy says a replacement creates first.
	CreateBeforeDestroy bool

	// Lifecycle decides what depends on the rest of the plan (nil: no
	// trigger fires, nothing prevents a destroy).
	Lifecycle Lifecycle
}

// Lifecycle is what Plan asks its caller about the lifecycle rules that
// depend on other objects' plans.
type Lifecycle interface {
	// ReplaceTriggered reports the replace_triggered_by entry of r that
	// fires for addr, if any, evaluated in scope.
	ReplaceTriggered(r *config.Resource, scope *lang.Scope, addr addrs.AbsResourceInstance) (*plan.Trigger, diag.Diagnostics)
	// PreventDestroy checks r's prevent_destroy for addr; asked only when
	// the planned action deletes the prior object.
	PreventDestroy(r *config.Resource, addr addrs.AbsResourceInstance) diag.Diagnostics
}

// Plan plans one configured managed resource instance: its preconditions,
// its configuration evaluated and validated by the provider, ignore_changes,
// the proposed new value and the provider's plan of it (planned again as a
// create when the object is replaced), the action and its reason, and its
// postconditions against the planned value. The change's Before and After
// carry the sensitive marks of the configuration, the schema and the state.
//
// It returns a nil change when planning stopped before there was one; a
// change with error diagnostics (a trigger, prevent_destroy or a
// postcondition) is still the plan of the instance. The caller fills in
// what the plan records beside the provider's answer: Dependencies,
// Importing and where create_before_destroy was inherited from.
func Plan(ctx context.Context, req PlanRequest) (*plan.ResourceInstanceChange, diag.Diagnostics) {
	var ds diag.Diagnostics
	r, sch, prov, pc, addr := req.Resource, req.Schema, req.Provider, req.ProviderConfig, req.Addr
	ty := sch.Block.ImpliedType()
	typeName := r.Addr.Type
	oaddr := addrs.ObjectAddr{Instance: addr}
	priorVal := req.Prior
	if priorVal == cty.NilVal {
		priorVal = cty.NullVal(ty)
	}

	scope := req.Eval.Scope(addr.Module, req.Instance)
	for i, rule := range r.Preconditions {
		ds = ds.Append(eval.CheckRule(scope, rule, "Resource precondition failed", "", ruleAt(req.Checks, addr, checks.Precondition, i)))
	}
	cfg, more := EvalConfig(scope, r, sch, pc)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return nil, ds
	}
	configVal, configMarks := cfg.Value, cfg.Marks
	ds = ds.Append(diag.SortBySource(diag.WithAddress(provider.Redacted(prov.ValidateResourceConfig(ctx, typeName, configVal), cfg.Marked).InBody(r.Config), oaddr)))
	if ds.HasErrors() {
		return nil, ds
	}
	// ignore_changes applies to updates: a tainted object is replaced, and a
	// replacement's new object is planned from the configuration as written.
	origConfig := configVal
	if !priorVal.IsNull() && !req.Tainted && r.Managed != nil {
		configVal = ApplyIgnoreChanges(r.Managed, priorVal, configVal)
	}
	proposed := provider.ProposedNew(sch.Block, priorVal, configVal)
	meta, more := req.Eval.ProviderMeta(ctx, req.Providers, addr.Module, pc.Provider, r.Addr.String())
	if ds = ds.Append(more); ds.HasErrors() {
		return nil, ds
	}
	priorIdentity := req.PriorIdentity
	if priorIdentity == cty.NilVal {
		priorIdentity = plan.NullIdentity(sch)
	}
	resp := prov.PlanResourceChange(provider.WithResourceInstance(ctx, addr), provider.PlanRequest{TypeName: typeName, PriorState: priorVal, ProposedNewState: proposed, Config: configVal, PriorPrivate: req.PriorPrivate, ProviderMeta: meta, PriorIdentity: priorIdentity})
	ds = ds.Append(diag.WithAddress(provider.Redacted(resp.Diagnostics, cfg.Marked, plan.MarkRecorded(sch.Block, priorVal, req.PriorSensitive)).InBody(r.Config), oaddr))
	if ds.HasErrors() {
		return nil, ds
	}
	ds = ds.Append(CheckPlanned(sch.Block, priorVal, configVal.MarkWithPaths(configMarks), resp, pc, addr))
	if ds.HasErrors() {
		return nil, ds
	}
	planned := sch.Block.NullWriteOnly(resp.PlannedState)
	change := &plan.ResourceInstanceChange{
		Addr: addr, ProviderConfig: pc, Before: priorVal, After: planned,
		PriorPrivate: req.PriorPrivate, PlannedPrivate: resp.PlannedPrivate,
		SchemaVersion:       uint64(sch.Version),
		SkipDestroy:         r.Managed.SkipsDestroy(),
		CreateBeforeDestroy: req.CreateBeforeDestroy,
		BeforeIdentity:      priorIdentity,
		AfterIdentity:       plan.IdentityOf(sch, resp.PlannedIdentity),
	}

	// The action and its reason, in OpenTofu's order: replace_triggered_by
	// names the reason whatever else forces the replacement; the paths the
	// provider says force replacement are recorded whatever the reason.
	var trigger *plan.Trigger
	if req.Lifecycle != nil {
		t, more := req.Lifecycle.ReplaceTriggered(r, scope, addr)
		ds = ds.Append(more)
		trigger = t
	}
	if !priorVal.IsNull() {
		if !req.Tainted {
			change.RequiredReplace = changedPaths(sch.Block, resp.RequiresReplace, priorVal, planned)
		}
	}
	replace := chooseAction(req, change, trigger, configMarks)
	if replace {
		change.Action = replaceAction(r.Managed, change.CreateBeforeDestroy)
		// The new object is planned as a create.
		nullPrior := cty.NullVal(ty)
		proposed := provider.ProposedNew(sch.Block, nullPrior, origConfig)
		resp2 := prov.PlanResourceChange(provider.WithResourceInstance(ctx, addr), provider.PlanRequest{TypeName: typeName, PriorState: nullPrior, ProposedNewState: proposed, Config: origConfig, ProviderMeta: meta, PriorIdentity: plan.NullIdentity(sch)})
		ds = ds.Append(diag.WithAddress(provider.Redacted(resp2.Diagnostics, cfg.Marked).InBody(r.Config), oaddr))
		ds = ds.Append(CheckPlanned(sch.Block, nullPrior, origConfig.MarkWithPaths(configMarks), resp2, pc, addr))
		if ds.HasErrors() {
			return nil, ds
		}
		change.After = resp2.PlannedState
		change.PlannedPrivate = resp2.PlannedPrivate
		change.AfterIdentity = plan.IdentityOf(sch, resp2.PlannedIdentity)
		if change.Action.Deletes() && req.Lifecycle != nil {
			ds = ds.Append(req.Lifecycle.PreventDestroy(r, addr))
		}
	}
	if change.Action == plan.NoOp || change.Action == plan.Update {
		// An unchanged or updated object stays current; it keeps its status otherwise.
		change.PriorPrivate = req.PriorPrivate
		// ... and its identity, which the provider must know now.
		ds = ds.Append(plan.CheckIdentity(change.AfterIdentity, true, pc, addr))
		ds = ds.Append(plan.CheckIdentityKept("plan", priorIdentity, change.AfterIdentity, pc, addr))
		if !plan.HasIdentity(change.AfterIdentity) && plan.HasIdentity(priorIdentity) {
			change.AfterIdentity = priorIdentity
		}
	}
	if replace {
		recordFinal(change, origConfig, req)
	} else {
		recordFinal(change, configVal, req)
	}
	// The configuration's sensitive values, those the state recorded as
	// sensitive and the attributes the schema declares sensitive stay
	// marked in the change, for every view of it (the plan JSON's planned
	// values too, as Terraform marks a create or an update) and every
	// expression that refers to the object.
	change.Before = plan.MarkRecorded(sch.Block, change.Before, req.PriorSensitive)
	if change.Action == plan.NoOp {
		change.After = change.Before
	} else {
		change.After = sch.Block.MarkSensitive(change.After.MarkWithPaths(configMarks))
	}
	if !ds.HasErrors() {
		selfScope := req.Eval.Scope(addr.Module, req.Instance)
		selfScope.Self = change.After
		for i, rule := range r.Postconditions {
			ds = ds.Append(eval.CheckRule(selfScope, rule, "Resource postcondition failed", "", ruleAt(req.Checks, addr, checks.Postcondition, i)))
		}
	}
	return change, ds
}

// ruleAt says where the result of rule index of type t of addr goes.
func ruleAt(results *checks.State, addr addrs.AbsResourceInstance, t checks.RuleType, index int) eval.RuleAt {
	return eval.RuleAt{Checks: results, Object: checks.ResourceObject(addr), Type: t, Index: index}
}

// replaceAction is how a replacement of an object of a resource with
// lifecycle lc is carried out: forget-then-create with destroy = false (the
// old object is left in place), else destroy-then-create, or create-first
// with create_before_destroy. lc is nil for data sources.
func replaceAction(lc *config.ManagedLifecycle, cbd bool) plan.Action {
	switch {
	case lc.SkipsDestroy():
		return plan.ForgetThenCreate
	case cbd:
		return plan.CreateThenDelete
	}
	return plan.DeleteThenCreate
}

// chooseAction sets change's action and reason, in OpenTofu's order:
// replace_triggered_by names the reason whatever else forces the
// replacement, then a tainted object, -replace, an unchanged object (a no-op,
// or an update when only what is sensitive changes) and the paths the
// provider says force replacement. change's Before and After are still the
// prior and planned values without marks. It reports whether the object is
// replaced; the caller then sets the replacement's action.
func chooseAction(req PlanRequest, change *plan.ResourceInstanceChange, trigger *plan.Trigger, configMarks []cty.PathValueMarks) (replace bool) {
	switch {
	case change.Before.IsNull():
		// A create whose trigger fires keeps the trigger as its reason, as
		// OpenTofu 1.12's JSON plan and -json messages give it.
		change.Action = plan.Create
		if trigger != nil {
			change.Reason, change.Trigger = plan.ReplaceByTriggers, trigger
		}
	case trigger != nil:
		replace, change.Reason, change.Trigger = true, plan.ReplaceByTriggers, trigger
	case req.Tainted:
		replace, change.Reason = true, plan.ReplaceBecauseTainted
	case req.Replace:
		replace, change.Reason = true, plan.ReplaceByRequest
	case anyWriteOnly(req.Schema.Block, change.RequiredReplace):
		// As OpenTofu: a write-only argument that forces replacement
		// replaces the object whatever the other values.
		replace, change.Reason = true, plan.ReplaceBecauseCannotUpdate
	case ValuesEqual(change.After, change.Before) && sameSensitivity(req.Schema.Block, change.Before, req.PriorSensitive, change.After, configMarks):
		change.Action = plan.NoOp
		// One value for both sides: an unchanged object is kept once in memory.
		change.After = change.Before
	case ValuesEqual(change.After, change.Before):
		// Only what is sensitive changes: an update that records it, as
		// OpenTofu and Terraform plan it (the apply calls no provider).
		change.Action = plan.Update
	case len(change.RequiredReplace) > 0:
		replace, change.Reason = true, plan.ReplaceBecauseCannotUpdate
	default:
		change.Action = plan.Update
	}
	return replace
}
