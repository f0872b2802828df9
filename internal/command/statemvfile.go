package command

import (
	"context"
	"fmt"
	"time"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/local"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/state/statemgr"
	"github.com/rig-iac/rig/internal/workdir"
)

// stateFileOptions say how `state mv -state-out` uses its destination file.
type stateFileOptions struct {
	lock        bool
	lockTimeout time.Duration
	// path is the destination state file.
	path string
	// backup is -backup-out: "" for the stamped default, "-" for none.
	backup string
}

// moveToFile is `state mv -state-out=PATH`: it moves what from names in
// the current state (or the -state file) to to in the state file at
// dst.path, creating it if missing, and writes both with their next
// serials, each backed up first.
func (m *Meta) moveToFile(from, to stateTarget, dry bool, dst stateFileOptions) int {
	ctx := context.Background()
	cfg, _ := m.loadConfigQuiet()
	srcStore, ds := m.dir().StateStore(ctx, cfg)
	if ds.HasErrors() {
		m.showDiagnostics(ds)
		return 1
	}
	backup := dst.backup
	if backup == "" {
		backup = fmt.Sprintf("%s.%d%s", dst.path, time.Now().Unix(), local.BackupExtension)
	}
	dstStore, err := m.dir().LegacyStateStore(ctx, dst.path, backup)
	if err != nil {
		m.showDiagnostics(diag.Diagnostics{diag.Errorf("Failed to open state", "%s", err)})
		return 1
	}
	if srcStore.Path() == dstStore.Path() {
		return m.modifyState(dst.lock, dst.lockTimeout, func(s *state.State) (bool, diag.Diagnostics) {
			return m.moveObjects(s, s, from, to, dry)
		})
	}
	var states [2]*state.State
	for i, store := range []backend.Store{srcStore, dstStore} {
		if dst.lock {
			unlock, more := m.dir().LockState(ctx, store, "OperationTypeInvalid", dst.lockTimeout)
			if more.HasErrors() {
				m.showDiagnostics(ds.Append(more))
				return 1
			}
			defer unlock()
		}
		s, more := workdir.ReadState(ctx, store)
		if ds = ds.Append(more); !more.HasErrors() {
			ds = ds.Append(statemgr.Recover(ctx, store, s))
		}
		if ds.HasErrors() {
			m.showDiagnostics(ds)
			return 1
		}
		states[i] = s
	}
	src, dstState := states[0], states[1]
	changed, more := m.moveObjects(src, dstState, from, to, dry)
	ds = ds.Append(more)
	if ds.HasErrors() || !changed {
		m.showDiagnostics(ds)
		if ds.HasErrors() {
			return 1
		}
		return 0
	}
	// The destination first: an object is never in neither file.
	for i, store := range []backend.Store{dstStore, srcStore} {
		s := [2]*state.State{dstState, src}[i]
		s.Serial++
		data, err := statefile.Marshal(s)
		if err == nil {
			err = store.Write(ctx, data)
		}
		if err != nil {
			m.showDiagnostics(ds.Append(diag.Errorf("Failed to write state", "%s", err)))
			return 1
		}
	}
	m.showDiagnostics(ds)
	return 0
}
