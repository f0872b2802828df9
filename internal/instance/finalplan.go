package instance

import (
	"bytes"

	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/zclconf/go-cty/cty"
)

// savedFinalPlan returns the saved plan of change c as its final plan, the
// planned object and private data the provider gave at plan time, when the
// plan recorded them final (no unknown values) and config, the configuration
// evaluated now, is the value they were planned from. The caller then skips
// PlanResourceChange: the provider would plan the same from the same prior
// object and configuration. ok is false when the provider must plan again.
func savedFinalPlan(c *plan.ResourceInstanceChange, config cty.Value) (resp provider.PlanResponse, ok bool) {
	if !c.IsFinal() || !bytes.Equal(plan.ConfigDigest(config), c.ConfigDigest) {
		return provider.PlanResponse{}, false
	}
	planned, _ := c.After.UnmarkDeep()
	resp = provider.PlanResponse{PlannedState: planned, PlannedPrivate: c.PlannedPrivate}
	if plan.HasIdentity(c.AfterIdentity) {
		resp.PlannedIdentity = c.AfterIdentity
	}
	return resp, true
}

// recordFinal records, in change, the digest of sent, the configuration
// sent with the PlanResourceChange that produced change.After, when change
// creates or updates an object, its planned value is wholly known and the
// provider was configured without unknowns: Apply then applies the saved
// plan without planning again (savedFinalPlan).
func recordFinal(change *plan.ResourceInstanceChange, sent cty.Value, req PlanRequest) {
	if !change.Action.Creates() && change.Action != plan.Update {
		return
	}
	if !whollyKnown(change.After) || req.Providers == nil || !req.Providers.ConfiguredKnown(req.ProviderConfig) {
		return
	}
	change.ConfigDigest = plan.ConfigDigest(sent)
}
