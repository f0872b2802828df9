package apply

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/lang"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/provider"
	"github.com/rig-iac/rig/internal/state"
	"github.com/zclconf/go-cty/cty"
)

// gatedObject is the new object of a health-gated create_before_destroy
// replacement, as created: what the gate reads again and, if it fails,
// destroys.
type gatedObject struct {
	op        Op
	c         *plan.ResourceInstanceChange
	r         *config.Resource
	sch       provider.Schema
	prov      provider.Interface
	meta      cty.Value
	inst      lang.InstanceData
	value     cty.Value // with its marks
	private   []byte
	identity  cty.Value // the identity the provider gave the new object
	deposeKey addrs.DeposedKey
}

// passGate holds a new object of a create_before_destroy replacement at
// its health gate (plan.HealthGate, rig.hcl) before anything moves onto
// it: the object is recorded tainted (so a run killed meanwhile replaces
// it, and the old object, still deposed, goes only after a new one has
// passed), then read again, with the data sources its postconditions
// refer to, and its postconditions evaluated with it as self, at once and
// every interval, until they pass or the timeout passes. The new objects
// of one batch are checked in shared rounds (gateRounds), each reading
// the data sources once for all of them. It returns the object as last read when it passed. When it did
// not (or the apply was interrupted meanwhile), the new object is
// destroyed and the old one made current again, so that nothing that
// depends on it changes, and the error names the gate and the last
// condition's message.
func (a *applier) passGate(walkCtx context.Context, gate *plan.HealthGate, o gatedObject) (cty.Value, []byte, diag.Diagnostics) {
	oaddr := addrs.ObjectAddr{Instance: o.op.Addr}
	tainted, err := a.newObject(o.c, o.sch, o.value, o.private, o.identity, state.Tainted)
	if err != nil {
		return cty.NilVal, nil, diag.Diagnostics{diag.Errorf("Failed to record the new object", "%s: %s", o.op.Addr, err)}
	}
	if err := a.rec.record([]addrs.ObjectAddr{oaddr}, func(s *state.State) { s.SetObject(oaddr, tainted, o.c.ProviderConfig) }); err != nil {
		return cty.NilVal, nil, diag.Diagnostics{diag.Errorf("Failed to persist state", "Before the health gate of %s: %s", o.op.Addr, err)}
	}
	interval := max(gate.Interval, time.Millisecond)
	start := time.Now()
	cur, private := o.value, o.private
	var last string
	reads := 0
	interrupted := false
	// The data sources the conditions refer to (an HTTP health check)
	// are read again for each check: once a round for the whole batch,
	// except those whose configuration depends on the gated object.
	rounds := a.gateRoundsOf(o.op, gate.Batch, interval)
	shared, own := a.splitGateData(o.op, gateDataSources(o.op, o.r))
	tick := rounds.firstTick(start)
	for {
		if !sleepUntil(walkCtx, tick) {
			interrupted = true
			break
		}
		round, ok := rounds.join(walkCtx, tick, func() diag.Diagnostics { return a.rereadData(shared) })
		if !ok {
			interrupted = true
			break
		}
		reads++
		if more := round.ds.Append(a.rereadData(own)); more.HasErrors() {
			last = errorText(more)
		} else {
			resp := o.prov.ReadResource(provider.WithResourceInstance(a.opCtx, o.op.Addr), provider.ReadRequest{
				TypeName: o.op.Addr.Resource.Resource.Type, PriorState: unmarked(cur), Private: private, ProviderMeta: o.meta})
			switch {
			case resp.Diagnostics.HasErrors():
				last = errorText(diag.WithAddress(provider.Redacted(resp.Diagnostics, cur), oaddr))
			case resp.NewState == cty.NilVal || resp.NewState.IsNull():
				last = "the new object no longer exists"
			default:
				_, marks := cur.UnmarkDeepWithPaths()
				cur, private = o.sch.Block.MarkSensitive(resp.NewState.MarkWithPaths(marks)), resp.Private
				conds := a.postconditions(o.op, o.r, o.inst, cur)
				if !conds.HasErrors() {
					return cur, private, nil
				}
				last = errorText(conds)
			}
		}
		if tick = rounds.nextTick(round.at); tick.Sub(start) > gate.Timeout {
			break
		}
	}
	if interrupted {
		last = "the apply was interrupted while waiting; last check: " + last
	}
	ds := diag.Diagnostics{{Severity: diag.Error, Summary: "Health gate failed", Address: o.op.Addr,
		Detail: fmt.Sprintf("The new object of %s did not pass its health gate (rig.hcl): %d read(s) over %s, every %s, timeout %s. Last result: %s",
			o.op.Addr, reads, time.Since(start).Round(time.Millisecond), gate.Interval, gate.Timeout, last)}}
	if interrupted {
		// An interrupt, not the object, stopped the gate: the apply is
		// reported interrupted.
		ds = ds.Append(diag.Errorf("Operation interrupted",
			"The apply was interrupted while the new object of %s waited at its health gate: it is rolled back, and what waits for it does not start. The state records every operation that finished.", o.op.Addr))
	}
	return cty.NilVal, nil, ds.Append(a.rollBack(o, cur, private))
}

// sleepUntil waits until t, or until ctx is done: it reports false then.
// It returns true at once when t has passed.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return true
	}
	return sleepOrDone(ctx, d)
}

// sleepOrDone waits for d, or until ctx is done: it reports false then.
func sleepOrDone(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// rollBack destroys the new object of a failed health gate and makes the
// deposed old object current again. If the destroy fails, the new object
// stays recorded, tainted, beside the deposed old one: the next plan
// replaces it, and the old object goes only once a new one has passed.
func (a *applier) rollBack(o gatedObject, cur cty.Value, private []byte) diag.Diagnostics {
	oaddr := addrs.ObjectAddr{Instance: o.op.Addr}
	ty := o.sch.Block.ImpliedType()
	resp := o.prov.ApplyResourceChange(provider.WithResourceInstance(a.opCtx, o.op.Addr), provider.ApplyRequest{
		TypeName: o.op.Addr.Resource.Resource.Type, PriorState: unmarked(cur),
		PlannedState: cty.NullVal(ty), Config: cty.NullVal(ty), PlannedPrivate: private, ProviderMeta: o.meta})
	if resp.Diagnostics.HasErrors() {
		return diag.Diagnostics{{Severity: diag.Error, Summary: "Failed to destroy the new object", Address: o.op.Addr,
			Detail: fmt.Sprintf("After its health gate failed, rig could not destroy the new object of %s: %s\n\nThe new object stays recorded, tainted, and the old one deposed: the next apply replaces the new object and keeps the old one until a replacement passes.", o.op.Addr, errorText(provider.Redacted(resp.Diagnostics, cur)))}}
	}
	both := []addrs.ObjectAddr{oaddr, {Instance: o.op.Addr, Deposed: o.deposeKey}}
	if err := a.rec.record(both, func(s *state.State) {
		s.SetObject(oaddr, nil, o.c.ProviderConfig)
		restoreDeposed(s, o.op.Addr, o.deposeKey, o.c.ProviderConfig)
	}); err != nil {
		return diag.Diagnostics{diag.Errorf("Failed to persist state", "After rolling back %s: %s", o.op.Addr, err)}
	}
	return nil
}

// errorText is the errors of ds as one line each: "summary: detail".
func errorText(ds diag.Diagnostics) string {
	var parts []string
	for _, d := range ds {
		if d.Severity != diag.Error {
			continue
		}
		p := d.Summary
		if d.Detail != "" {
			p += ": " + d.Detail
		}
		parts = append(parts, strings.TrimSpace(p))
	}
	return strings.Join(parts, "; ")
}
