package command

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/plan"
	"github.com/rig-iac/rig/internal/planner"
	"github.com/rig-iac/rig/internal/state"
)

// refreshTimesFile holds, per workspace, when rig last read back each
// object of the state (docs/design.md §10): .terraform/rig-refresh.json.
func (m *Meta) refreshTimesFile() string { return m.dataPath("rig-refresh.json") }

// refreshTimes are the last refresh times of one workspace's objects, valid
// only for the state of the lineage and serial they were recorded with:
// any other tool that writes the state changes its serial, and every time
// becomes unknown.
type refreshTimes struct {
	Lineage string `json:"lineage"`
	Serial  uint64 `json:"serial"`
	// Objects maps an object's address to the Unix time, in seconds, of
	// its last refresh.
	Objects map[string]int64 `json:"objects"`
}

// refreshTimesDoc is the file: its workspaces' times.
type refreshTimesDoc struct {
	Workspaces map[string]*refreshTimes `json:"workspaces"`
}

// refreshTracking is what an operation knows of its objects' last refresh
// times: those recorded for the state it read, if any.
type refreshTracking struct {
	// enabled says the times are kept: -refresh=changed or rig.hcl's
	// refresh = "changed" is in effect, or the file exists.
	enabled bool
	// valid holds the recorded times that apply to the state read (nil
	// when none do).
	valid map[addrs.ObjectAddr]time.Time
}

// loadRefreshTimes reads the recorded times that apply to s, the state the
// operation read. A missing or unreadable file, or times recorded for
// another state, leave every time unknown.
func (m *Meta) loadRefreshTimes(s *state.State, wanted bool) refreshTracking {
	doc, exists := readRefreshTimes(m.refreshTimesFile())
	t := refreshTracking{enabled: wanted || exists}
	rt := doc.Workspaces[m.workspace()]
	if rt == nil || rt.Lineage != s.Lineage || rt.Serial != s.Serial {
		return t
	}
	t.valid = make(map[addrs.ObjectAddr]time.Time, len(rt.Objects))
	for a, at := range rt.Objects {
		inst, err := addrs.ParseAbsResourceInstanceStr(a)
		if err != nil {
			continue
		}
		t.valid[addrs.ObjectAddr{Instance: inst}] = time.Unix(at, 0).UTC()
	}
	return t
}

func readRefreshTimes(path string) (refreshTimesDoc, bool) {
	var doc refreshTimesDoc
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, false
	}
	if err == nil {
		_ = json.Unmarshal(b, &doc) // unreadable: every time unknown
	}
	return doc, true
}

// scope returns the plan's refresh scope: nil when times are not kept.
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
func (m *Meta) recordRefreshTimes(t refreshTracking, p *plan.Plan, s *state.State, applied bool) error {
	if !t.enabled || p == nil || s == nil {
		return nil
	}
	now := time.Now().Unix()
	refreshed := make(map[addrs.ObjectAddr]bool, len(p.Refreshed))
	for _, a := range p.Refreshed {
		refreshed[a] = true
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
	rt := &refreshTimes{Lineage: s.Lineage, Serial: s.Serial, Objects: map[string]int64{}}
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
				rt.Objects[a.String()] = now
			case refreshed[a]:
				rt.Objects[a.String()] = p.Timestamp.Unix()
			default:
				if at, ok := t.valid[a]; ok {
					rt.Objects[a.String()] = at.Unix()
				}
			}
		}
	}
	path := m.refreshTimesFile()
	doc, _ := readRefreshTimes(path)
	if doc.Workspaces == nil {
		doc.Workspaces = map[string]*refreshTimes{}
	}
	doc.Workspaces[m.workspace()] = rt
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := writePrivateFile(tmp, b); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return nil
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

// refreshScope is the plan's refresh scope for flags f in mode: nil when
// nothing is refreshed or no times are kept; -refresh=changed limits only
// normal plans.
func (op *operation) refreshScope(f *operationFlags, mode plan.Mode) *planner.RefreshScope {
	if !f.refresh {
		return nil
	}
	return op.refreshTimes.scope(op.refreshChanged && mode == plan.NormalMode, op.refreshMaxAge)
}
