package instance

import (
	"context"
	"fmt"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// ApplyRequest is what Apply needs to carry out one planned create or
// update (or the create half of a replacement).
type ApplyRequest struct {
	// Change is the saved plan's change of the instance.
	Change   *plan.ResourceInstanceChange
	Resource *config.Resource
	Schema   provider.Schema
	Provider provider.Interface
	// Config is the instance's configuration evaluated now that the values
	// it references are known (EvalConfig); Meta its provider_meta.
	Config Config
	Meta   cty.Value
	// Depose, when not nil, deposes the current object of a
	// create_before_destroy replacement: it is called once the final plan
	// is checked, before the provider applies it.
	Depose func() diag.Diagnostics
	// BeforeCreate, when not nil, is called with the final planned object
	// (with its configuration's marks) and the identity the provider
	// planned for it (cty.NilVal when none) just before the provider is
	// asked to create it; an error stops the create.
	BeforeCreate func(planned, identity cty.Value) diag.Diagnostics
}

// Outcome is what the state records of an instance once Apply returns.
type Outcome uint8

const (
	// NotApplied: Apply stopped before the provider was asked to apply;
	// the state does not change.
	NotApplied Outcome = iota
	// RecordObject: the new object is recorded, with Applied.Status.
	RecordObject
	// RemoveObject: the provider returned no object; the current one is
	// removed.
	RemoveObject
	// KeepPrior: a failed update returned nothing; the prior object stays
	// as it was.
	KeepPrior
	// RestoreDeposed: a failed create_before_destroy create returned
	// nothing; the deposed object becomes current again.
	RestoreDeposed
)

// Applied is the result of Apply.
type Applied struct {
	Outcome Outcome
	// NewState is the new object with the configuration's and the schema's
	// sensitive marks (null when the provider returned none); Private its
	// private data.
	NewState cty.Value
	Private  []byte
	// Identity is the new object's resource identity (cty.NilVal when
	// there is none to record).
	Identity cty.Value
	// Status is how a recorded object is recorded: tainted when its create
	// failed.
	Status state.ObjectStatus
	// Failed says the apply failed (the diagnostics say why) even though an
	// object may be recorded.
	Failed bool
}

// Apply plans the change again with the configuration as it is now (unless
// the saved plan is final, see savedFinalPlan), checks
// the final plan against the saved one, has the provider apply it (or, when
// only what is sensitive changes, records the planned object without asking
// the provider, as OpenTofu does), checks what the provider returned and
// says what the state is to record. The caller records it.
func Apply(ctx context.Context, req ApplyRequest) (Applied, diag.Diagnostics) {
	var ds diag.Diagnostics
	c, r, sch, prov := req.Change, req.Resource, req.Schema, req.Provider
	addr := c.Addr
	oaddr := addrs.ObjectAddr{Instance: addr}
	ty := sch.Block.ImpliedType()
	typeName := addr.Resource.Resource.Type
	configVal, configMarks := req.Config.Value, req.Config.Marks
	ictx := provider.WithResourceInstance(ctx, addr)

	prior, _ := c.Before.UnmarkDeep()
	priorPrivate := c.PriorPrivate
	if c.Action.Creates() {
		prior = cty.NullVal(ty)
		priorPrivate = nil
	}
	if !prior.IsNull() && r.Managed != nil {
		configVal = ApplyIgnoreChanges(r.Managed, prior, configVal)
	}
	priorIdentity := c.BeforeIdentity
	if c.Action.Creates() && plan.HasIdentity(priorIdentity) {
		priorIdentity = cty.NullVal(priorIdentity.Type())
	}
	planResp, final := savedFinalPlan(c, configVal)
	if !final {
		proposed := provider.ProposedNew(sch.Block, prior, configVal)
		planResp = prov.PlanResourceChange(ictx, provider.PlanRequest{TypeName: typeName, PriorState: prior, ProposedNewState: proposed, Config: configVal, PriorPrivate: priorPrivate, ProviderMeta: req.Meta, PriorIdentity: priorIdentity})
		ds = ds.Append(diag.WithAddress(provider.Redacted(planResp.Diagnostics, req.Config.Marked, c.Before).InBody(r.Config), oaddr))
		ds = ds.Append(CheckPlanned(sch.Block, prior, configVal.MarkWithPaths(configMarks), planResp, c.ProviderConfig, addr))
		if ds.HasErrors() {
			return Applied{}, ds
		}
	}
	planned := planResp.PlannedState
	// The saved plan, when it is the final plan, is consistent with itself.
	if !final {
		if err := checkFinalPlan(c.After, planned); err != nil {
			return Applied{}, ds.Append(diag.Diagnostic{Severity: diag.Error, Summary: "Provider produced inconsistent final plan", Address: addr,
				Detail: fmt.Sprintf("When expanding the plan for %s to include new values learned so far during apply, provider %q produced an invalid new value: %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", addr, c.ProviderConfig.Provider.ForDisplay(), err)})
		}
	}
	cbd := req.Depose != nil
	if cbd {
		if ds = ds.Append(req.Depose()); ds.HasErrors() {
			return Applied{}, ds
		}
	}

	var resp provider.ApplyResponse
	onlyMarks := false
	if c.Action == plan.Update {
		eq := prior.Equals(planned)
		onlyMarks = eq.IsKnown() && eq.True()
	}
	if onlyMarks {
		// Only what is sensitive changes: the object is recorded with its
		// new marks, without asking the provider, as OpenTofu does.
		resp = provider.ApplyResponse{NewState: planned, Private: planResp.PlannedPrivate, NewIdentity: priorIdentity}
	} else {
		if req.BeforeCreate != nil && c.Action.Creates() {
			if ds = ds.Append(req.BeforeCreate(planned.MarkWithPaths(configMarks), planResp.PlannedIdentity)); ds.HasErrors() {
				return Applied{}, ds
			}
		}
		resp = prov.ApplyResourceChange(ictx, provider.ApplyRequest{TypeName: typeName, PriorState: prior, PlannedState: planned, Config: configVal, PlannedPrivate: planResp.PlannedPrivate, ProviderMeta: req.Meta, PlannedIdentity: planResp.PlannedIdentity})
	}
	ds = ds.Append(diag.WithAddress(provider.Redacted(resp.Diagnostics, req.Config.Marked, c.Before).InBody(r.Config), oaddr))
	newVal := resp.NewState
	if newVal == cty.NilVal {
		newVal = cty.NullVal(ty)
	}
	failed := ds.HasErrors()
	if !failed && !whollyKnown(newVal) {
		ds = ds.Append(diag.Diagnostic{Severity: diag.Error, Summary: "Provider returned invalid result object after apply", Address: addr,
			Detail: fmt.Sprintf("After the apply operation, the provider still indicated an unknown value for %s. All values must be known after apply, so this is always a bug in the provider and should be reported in the provider's own repository.", addr)})
		failed = true
		newVal = cty.UnknownAsNull(newVal)
	}
	if !failed && !resp.LegacyTypeSystem && !resp.Checked {
		// As in OpenTofu, the object is still recorded (tainted, if created).
		for _, err := range provider.AssertObjectCompatible(sch.Block, planned.MarkWithPaths(configMarks), newVal) {
			ds = ds.Append(diag.Diagnostic{Severity: diag.Error, Summary: "Provider produced inconsistent result after apply", Address: addr,
				Detail: fmt.Sprintf("When applying changes to %s, provider %q produced an unexpected new value: %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", addr, c.ProviderConfig.Provider.ForDisplay(), err)})
			failed = true
		}
	}

	newIdentity := resp.NewIdentity
	if !failed && !newVal.IsNull() {
		// An object's identity is known once it exists, and an update
		// keeps it.
		more := plan.CheckIdentity(newIdentity, true, c.ProviderConfig, addr)
		if c.Action == plan.Update {
			if kept := plan.CheckIdentityKept("apply", priorIdentity, newIdentity, c.ProviderConfig, addr); kept.HasErrors() {
				// The object is recorded as the provider returned it,
				// under the identity it had.
				more, newIdentity = more.Append(kept), priorIdentity
			}
		}
		if more.HasErrors() {
			ds, failed = ds.Append(more), true
		}
	}
	if !plan.HasIdentity(newIdentity) && c.Action == plan.Update {
		newIdentity = priorIdentity
	}
	if plan.HasIdentity(newIdentity) && !whollyKnown(newIdentity) {
		newIdentity = cty.NilVal
	}
	out := Applied{NewState: sch.Block.MarkSensitive(newVal.MarkWithPaths(configMarks)), Private: resp.Private, Identity: newIdentity, Failed: failed}
	switch {
	case newVal.IsNull() && failed && cbd:
		// A failed create_before_destroy create with no new object restores the old one.
		out.Outcome = RestoreDeposed
	case newVal.IsNull() && failed && c.Action == plan.Update:
		// A failed update that returns nothing leaves the prior object as it was.
		out.Outcome = KeepPrior
	case newVal.IsNull():
		out.Outcome = RemoveObject
	default:
		out.Outcome, out.Status = RecordObject, state.Ready
		if failed && c.Action.Creates() {
			// A failed create leaves a tainted object, replaced by the next plan.
			out.Status = state.Tainted
		}
	}
	return out, ds
}
