package command

import (
	"fmt"
	"strconv"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/workdir"
)

// refreshTracking is what an operation knows of its objects' last refresh
// times (docs/design.md §10): those recorded for the state it read, if any.
type refreshTracking struct {
	// enabled says the plan lists what it refreshed; record says the
	// times are kept (-refresh=changed or rig.hcl's refresh = "changed"
	// is in effect, or the file exists); changed is -refresh=changed in
	// effect.
	enabled, record, changed bool
	// workspace is the session's; valid holds the recorded times that
	// apply to the state read (nil when none do).
	workspace string
	valid     map[addrs.ObjectAddr]time.Time
}

// loadRefreshTimes reads the refresh times that apply to the session's
// state, for a plan with flags f.
func (m *Meta) loadRefreshTimes(sess *workdir.Session, f *operationFlags) refreshTracking {
	t := refreshTracking{workspace: sess.Workspace}
	t.changed = f.refreshChanged || !f.refreshSet && sess.RefreshChanged
	valid, exists := sess.Dir.LoadRefreshTimes(sess.Workspace, sess.State)
	t.valid = valid
	t.record = t.changed || exists
	t.enabled = t.record || f.listRefreshed
	if f.listRefreshed {
		t.record, t.changed = false, false
	}
	return t
}

// scope returns the plan's refresh scope: nil when nothing is tracked.
func (t refreshTracking) scope(changed bool, maxAge time.Duration) *planner.RefreshScope {
	if !t.enabled {
		return nil
	}
	return &planner.RefreshScope{Changed: changed, MaxAge: maxAge, LastRefreshed: func(a addrs.ObjectAddr) (time.Time, bool) {
		at, ok := t.valid[a]
		return at, ok
	}}
}

// recordRefreshTimes records the last refresh times of the current
// objects of s, the state as persisted after a plan (the state read) or an
// apply (the final state) of p: an object written by the apply was
// refreshed now, one the plan read back at the plan's time (unless it
// drifted and nothing applied the refreshed state), any other keeps its
// recorded time.
func (m *Meta) recordRefreshTimes(p *plan.Plan, s *state.State, applied bool) error {
	t := m.refreshTimes
	if !t.record || p == nil || s == nil {
		return nil
	}
	now := time.Now()
	refreshed := make(map[addrs.ObjectAddr]bool, len(p.Refreshed))
	for _, r := range p.Refreshed {
		refreshed[r.Addr] = true
	}
	if !applied {
		for _, d := range p.Drift {
			delete(refreshed, d.ObjectAddr())
		}
	}
	written := map[addrs.ObjectAddr]bool{}
	if applied {
		for _, c := range p.Changes {
			if c.Action != plan.NoOp && c.Action != plan.Delete && c.Action != plan.Forget {
				written[c.ObjectAddr()] = true
			}
		}
	}
	times := map[addrs.ObjectAddr]time.Time{}
	for _, r := range s.Resources {
		if r.Addr.Resource.Mode != addrs.Managed {
			continue
		}
		for k, inst := range r.Instances {
			if inst.Current == nil {
				continue
			}
			a := addrs.ObjectAddr{Instance: r.Addr.Instance(k)}
			switch {
			case written[a]:
				times[a] = now
			case refreshed[a]:
				times[a] = p.Timestamp
			default:
				if at, ok := t.valid[a]; ok {
					times[a] = at
				}
			}
		}
	}
	return m.dir().SaveRefreshTimes(t.workspace, s, times)
}

// refreshFlag is -refresh: true, false or changed (-refresh alone is true).
type refreshFlag struct {
	refresh, changed, set *bool
}

func (f refreshFlag) IsBoolFlag() bool { return true }

func (f refreshFlag) String() string {
	if f.refresh == nil {
		return ""
	}
	if f.changed != nil && *f.changed {
		return "changed"
	}
	return strconv.FormatBool(*f.refresh)
}

func (f refreshFlag) Set(v string) error {
	*f.set = true
	if v == "changed" {
		*f.refresh, *f.changed = true, true
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf(`want true, false or changed`)
	}
	*f.refresh, *f.changed = b, false
	return nil
}
