package workdir

import (
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/state"
)

// RefreshFlags are the options of a plan that decide what is refreshed
// and whether refresh times are kept.
type RefreshFlags struct {
	// Changed is -refresh=changed; Set says -refresh was given at all
	// (else rig.hcl's refresh = "changed" applies).
	Changed, Set bool
	// ListOnly has the plan list what it read back, without keeping
	// refresh times (rig drift).
	ListOnly bool
}

// RefreshTracking is what an operation knows of its objects' last refresh
// times (docs/design.md §10): those recorded for the state it read, if
// any. A nil RefreshTracking tracks nothing.
type RefreshTracking struct {
	// enabled says the plan lists what it refreshed; record says the
	// times are kept (-refresh=changed or rig.hcl's refresh = "changed"
	// is in effect, or the file exists); changed is -refresh=changed in
	// effect.
	enabled, record, changed bool
	dir                      *Dir
	workspace                string
	maxAge                   time.Duration
	// valid holds the recorded times that apply to the state read (nil
	// when none do).
	valid map[addrs.ObjectAddr]time.Time
}

// RefreshTracking reads the refresh times that apply to the session's
// state, for a plan with flags f.
func (s *Session) RefreshTracking(f RefreshFlags) *RefreshTracking {
	t := &RefreshTracking{dir: s.Dir, workspace: s.Workspace, maxAge: s.RefreshMaxAge}
	t.changed = f.Changed || !f.Set && s.RefreshChanged
	valid, exists := s.Dir.LoadRefreshTimes(s.Workspace, s.State)
	t.valid = valid
	t.record = t.changed || exists
	t.enabled = t.record || f.ListOnly
	if f.ListOnly {
		t.record, t.changed = false, false
	}
	return t
}

// Scope returns the refresh scope of a plan in mode: nil when nothing is
// tracked. Only a normal plan skips what did not change.
func (t *RefreshTracking) Scope(mode plan.Mode) *planner.RefreshScope {
	if t == nil || !t.enabled {
		return nil
	}
	return &planner.RefreshScope{Changed: t.changed && mode == plan.NormalMode, MaxAge: t.maxAge,
		LastRefreshed: func(a addrs.ObjectAddr) (time.Time, bool) {
			at, ok := t.valid[a]
			return at, ok
		}}
}

// Record records the last refresh times of the current objects of s, the
// state as persisted after a plan (the state read) or an apply (the final
// state) of p: an object written by the apply was refreshed now, one the
// plan read back at the plan's time (unless it drifted and nothing
// applied the refreshed state), any other keeps its recorded time.
func (t *RefreshTracking) Record(p *plan.Plan, s *state.State, applied bool) error {
	if t == nil || !t.record || p == nil || s == nil {
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
	return t.dir.SaveRefreshTimes(t.workspace, s, times)
}
