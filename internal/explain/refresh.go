package explain

import (
	"fmt"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/ui"
)

// Refresh is how a plan treated the object the state recorded before it:
// read back from its API (and why), planned as recorded under
// -refresh=changed (and since when), or not read with -refresh=false.
type Refresh struct {
	// Mode is the plan's -refresh; MaxAge its refresh_max_age under
	// -refresh=changed.
	Mode   plan.RefreshMode
	MaxAge time.Duration
	// PlanTime is when planning began: ages are measured from it.
	PlanTime time.Time
	// Recorded says the state recorded an object there before the plan;
	// without one (a create) there was nothing to read back.
	Recorded bool
	// Refreshed is the plan's record of the object's read, with why;
	// NotRefreshed its record of planning it as recorded. Both are nil
	// when the plan listed neither (it lists them with -refresh=changed,
	// or once rig keeps refresh times).
	Refreshed    *plan.Refreshed
	NotRefreshed *plan.NotRefreshed
}

// refreshOf returns how p treated the recorded object of change c.
func refreshOf(p *plan.Plan, c *plan.ResourceInstanceChange) Refresh {
	addr := c.ObjectAddr()
	r := Refresh{Mode: p.Refresh, MaxAge: p.RefreshMaxAge, PlanTime: p.Timestamp}
	r.Refreshed, r.NotRefreshed = p.RefreshOf(addr)
	prev := addr
	if c.PrevRunAddr != (addrs.AbsResourceInstance{}) {
		prev.Instance = c.PrevRunAddr
	}
	r.Recorded = r.Refreshed != nil || r.NotRefreshed != nil || p.PrevRunState != nil && p.PrevRunState.Object(prev) != nil
	return r
}

// ReadBack reports whether the plan read the object back from its API.
func (r Refresh) ReadBack() bool {
	switch {
	case r.Refreshed != nil:
		return true
	case r.NotRefreshed != nil || r.Mode != plan.RefreshAll:
		return false
	}
	return r.Recorded
}

// Text says in words how the plan treated the object; "" when there is
// nothing to say (no recorded object, or one the plan did not cover).
func (r Refresh) Text() string {
	switch {
	case !r.Recorded:
		return ""
	case r.NotRefreshed != nil:
		return fmt.Sprintf("not read back (-refresh=changed): planned as recorded; last read back %s, within refresh_max_age (%s), and its configuration, inputs and dependencies are unchanged",
			r.when(r.NotRefreshed.LastRefreshed), ui.Ago(r.MaxAge))
	case r.Refreshed != nil:
		return "read back " + r.cause(*r.Refreshed)
	case r.Mode == plan.RefreshNone:
		return "not read back (-refresh=false): planned against the object as recorded"
	case r.Mode == plan.RefreshAll:
		return "read back (every recorded object is, without -refresh=changed)"
	}
	return ""
}

// cause says why the object was read back.
func (r Refresh) cause(why plan.Refreshed) string {
	switch why.Cause {
	case plan.RefreshTimeUnknown:
		return "(-refresh=changed): rig knows no last refresh time for it (never read back by rig here, or the state was written by another tool since)"
	case plan.RefreshTooOld:
		return fmt.Sprintf("(-refresh=changed): last read back %s, older than refresh_max_age (%s)", r.when(why.LastRefreshed), ui.Ago(r.MaxAge))
	case plan.RefreshTainted:
		return "(-refresh=changed): the object is tainted"
	case plan.RefreshDependencyChanged:
		return fmt.Sprintf("(-refresh=changed): %s, which it depends on, has a change or changed outside rig", why.Dependency)
	case plan.RefreshWouldChange:
		return "(-refresh=changed): planned as recorded it would change (its configuration or inputs changed), so it was planned again against what its API returned"
	case plan.RefreshAlways:
		return "(-refresh=changed): deposed objects and objects without configuration are always read back"
	}
	return "(every recorded object is, without -refresh=changed)"
}

// when writes a last refresh time with its age at planning.
func (r Refresh) when(at time.Time) string {
	return fmt.Sprintf("%s (%s before the plan)", at.UTC().Format(time.RFC3339), ui.Ago(r.PlanTime.Sub(at)))
}
