package workdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
)

// refreshTimesFile holds, per workspace, when rig last read back each
// object of the state (docs/design.md §10): .terraform/rig-refresh.json.
const refreshTimesFile = "rig-refresh.json"

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

// LoadRefreshTimes returns the last refresh times recorded for workspace
// that apply to s, the state as read (nil when none do: a missing or
// unreadable file, or times recorded for another state), and whether the
// file exists.
func (d *Dir) LoadRefreshTimes(workspace string, s *state.State) (map[addrs.ObjectAddr]time.Time, bool) {
	doc, exists := d.readRefreshTimes()
	rt := doc.Workspaces[workspace]
	if rt == nil || s == nil || rt.Lineage != s.Lineage || rt.Serial != s.Serial {
		return nil, exists
	}
	valid := make(map[addrs.ObjectAddr]time.Time, len(rt.Objects))
	for a, at := range rt.Objects {
		inst, err := addrs.ParseAbsResourceInstanceStr(a)
		if err != nil {
			continue
		}
		valid[addrs.ObjectAddr{Instance: inst}] = time.Unix(at, 0).UTC()
	}
	return valid, exists
}

func (d *Dir) readRefreshTimes() (refreshTimesDoc, bool) {
	var doc refreshTimesDoc
	b, err := os.ReadFile(d.DataPath(refreshTimesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return doc, false
	}
	if err == nil {
		_ = json.Unmarshal(b, &doc) // unreadable: every time unknown
	}
	return doc, true
}

// SaveRefreshTimes records, for workspace, the last refresh time of each
// current object of s, the state as persisted: times says when each was
// read back or written (objects it does not name are left out). The file
// is written with mode 0600 and replaced atomically.
func (d *Dir) SaveRefreshTimes(workspace string, s *state.State, times map[addrs.ObjectAddr]time.Time) error {
	rt := &refreshTimes{Lineage: s.Lineage, Serial: s.Serial, Objects: make(map[string]int64, len(times))}
	for a, at := range times {
		rt.Objects[a.String()] = at.Unix()
	}
	doc, _ := d.readRefreshTimes()
	if doc.Workspaces == nil {
		doc.Workspaces = map[string]*refreshTimes{}
	}
	doc.Workspaces[workspace] = rt
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	path := d.DataPath(refreshTimesFile)
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
