package workdir

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/corelog"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/encryption"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/state/statemgr"
)

// Backend returns the state backend the configuration selects: the one
// `rig init` recorded (see resolveBackend), or the local backend with the
// legacy options' files when they are given.
func (d *Dir) Backend(cfg *config.Module) (backend.Backend, diag.Diagnostics) {
	if d.opts.Legacy.Active() {
		return d.legacyStateBackend(cfg)
	}
	return d.resolveBackend(cfg)
}

// StateStore opens the state store of the selected workspace, encrypted
// as the configuration's encryption block says.
func (d *Dir) StateStore(ctx context.Context, cfg *config.Module) (backend.Store, diag.Diagnostics) {
	b, ds := d.Backend(cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	enc, more := EncryptionOf(cfg)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return nil, ds
	}
	log := d.opts.Log
	store, err := b.Store(ctx, d.Workspace())
	if err != nil {
		return nil, ds.Append(diag.Errorf("Failed to open state", "%s", err))
	}
	log.Debug("state store opened", corelog.String("workspace", d.Workspace()), corelog.String("path", store.Path()))
	if log.Enabled(corelog.Info) {
		store = loggedStore{Store: store, log: log}
	}
	d.encryption = enc
	if enc != nil {
		store = encryptedStore{Store: store, enc: enc}
	}
	return store, ds
}

// ReadState reads the workspace's state. No state, or one that is empty
// or only white space, is an empty state, as in OpenTofu.
func ReadState(ctx context.Context, store backend.Store) (*state.State, diag.Diagnostics) {
	data, err := store.Read(ctx)
	if err != nil {
		return nil, diag.Diagnostics{diag.Errorf("Failed to load state", "%s", err)}
	}
	return ParseState(store, data)
}

// ParseState parses data, the state store holds, as ReadState does: no
// state, or white space only, is an empty state; what is not a state is
// an error that names the store.
func ParseState(store backend.Store, data []byte) (*state.State, diag.Diagnostics) {
	s, err := statefile.Parse(data)
	switch {
	case errors.Is(err, statefile.ErrEmpty):
		return state.New(), nil
	case err != nil && encryption.IsEncrypted(data):
		return nil, diag.Diagnostics{diag.Errorf("Failed to load state", "%s is encrypted, and the configuration has no encryption block with a state target to decrypt it. The state was left untouched.", store.Path())}
	case err != nil:
		return nil, diag.Diagnostics{diag.Errorf("Failed to load state", "Reading %s: %s. The state was left untouched.", store.Path(), err)}
	}
	return s, nil
}

// CurrentState reads the state of the selected workspace without locking
// it: a crashed run's journal is applied in memory only.
func (d *Dir) CurrentState(ctx context.Context, cfg *config.Module) (*state.State, diag.Diagnostics) {
	_, s, _, ds := d.readWithJournal(ctx, cfg)
	return s, ds
}

// PullState returns the selected workspace's state as state pull prints
// it: as stored, unless a run that ended before writing its state left
// operations in the journal; then with those operations, and the serial
// the next locked run writes when it folds them in. A store holding no
// state gives nil.
func (d *Dir) PullState(ctx context.Context, cfg *config.Module) ([]byte, diag.Diagnostics) {
	data, s, replayed, ds := d.readWithJournal(ctx, cfg)
	if !replayed || ds.HasErrors() {
		return data, ds
	}
	s.Serial++
	data, err := statefile.Marshal(s)
	if err != nil {
		return nil, ds.Append(diag.Errorf("Failed to load state", "Encoding the state with its journal: %s", err))
	}
	return data, ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "State includes operations from an interrupted run",
		Detail: "A run ended before it wrote the state, and the operations it completed are in the state journal. They are included here, with the serial the next run that takes the state lock writes when it folds them into the state."})
}

// StoredState is CurrentState for the state commands, which need a
// state: a store holding none is OpenTofu's "No state file was found".
func (d *Dir) StoredState(ctx context.Context, cfg *config.Module) (*state.State, diag.Diagnostics) {
	data, s, _, ds := d.readWithJournal(ctx, cfg)
	if !ds.HasErrors() && noStateIn(data) {
		return nil, ds.Append(noStateFound())
	}
	return s, ds
}

// noStateIn reports whether data, what a store holds, is no state: nothing
// or white space, as OpenTofu reads it.
func noStateIn(data []byte) bool { return len(bytes.TrimSpace(data)) == 0 }

// noStateFound is OpenTofu's error for a state command run where no
// state is stored.
func noStateFound() diag.Diagnostic {
	return diag.Errorf("No state file was found",
		"State management commands require a state file. Run this command in a directory where rig has been run or use the -state flag to point the command to a specific state location.")
}

// readWithJournal reads the selected workspace's state without locking
// it: what the store holds, and the state parsed from it with a crashed
// run's journal applied in memory (replayed says whether there was one).
func (d *Dir) readWithJournal(ctx context.Context, cfg *config.Module) (data []byte, s *state.State, replayed bool, ds diag.Diagnostics) {
	store, ds := d.StateStore(ctx, cfg)
	if ds.HasErrors() {
		return nil, nil, false, ds
	}
	data, err := store.Read(ctx)
	if err != nil {
		return nil, nil, false, ds.Append(diag.Errorf("Failed to load state", "%s", err))
	}
	s, more := ParseState(store, data)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return nil, nil, false, ds
	}
	replayed, more = statemgr.Replay(ctx, store, s)
	return data, s, replayed, ds.Append(more)
}

// LockState takes the state lock for an operation, waiting up to timeout.
// unlock releases it; a failure to release it is written to the
// Warnings of the Options.
func (d *Dir) LockState(ctx context.Context, store backend.Store, operation string, timeout time.Duration) (unlock func(), ds diag.Diagnostics) {
	info := backend.NewLockInfo(operation)
	id, err := d.lockNoticing(ctx, store, info, timeout)
	if err != nil {
		var le *backend.LockError
		detail := err.Error()
		if errors.As(err, &le) {
			detail = le.Error()
		}
		return nil, diag.Diagnostics{diag.Errorf("Error acquiring the state lock", "%s\n\nrig acquires a state lock to protect the state from being written by multiple users at the same time. Please resolve the issue above and try again. For most commands, you can disable locking with the \"-lock=false\" flag, but this is not recommended.", detail)}
	}
	log := d.opts.Log
	log.Debug("state locked", corelog.String("path", store.Path()), corelog.String("operation", operation), corelog.String("lock_id", id))
	return func() {
		if err := store.Unlock(context.Background(), id); err != nil {
			fmt.Fprintf(d.opts.Warnings, "Error releasing the state lock: %s\n", err)
			return
		}
		log.Debug("state unlocked", corelog.String("path", store.Path()), corelog.String("lock_id", id))
	}, nil
}

// LockWaitNotice is how long acquiring the state lock may take before
// Options.LockWaiting is called, as OpenTofu waits before it says it is
// acquiring the lock.
const LockWaitNotice = 400 * time.Millisecond

// lockNoticing is backend.LockWithTimeout, calling Options.LockWaiting
// when it takes longer than LockWaitNotice.
func (d *Dir) lockNoticing(ctx context.Context, store backend.Store, info backend.LockInfo, timeout time.Duration) (string, error) {
	if d.opts.LockWaiting == nil {
		return backend.LockWithTimeout(ctx, store, info, timeout)
	}
	var noticed sync.WaitGroup
	noticed.Add(1)
	t := time.AfterFunc(LockWaitNotice, func() {
		defer noticed.Done()
		d.opts.LockWaiting()
	})
	id, err := backend.LockWithTimeout(ctx, store, info, timeout)
	if t.Stop() {
		noticed.Done()
	}
	noticed.Wait()
	return id, err
}

// LockOptions say whether and how long a command waits for the state lock
// (-lock, -lock-timeout).
type LockOptions struct {
	Lock    bool
	Timeout time.Duration
	// RequireState makes a state edit fail with "No state file was
	// found" where no state is stored (state rm, mv, replace-provider),
	// as OpenTofu's do.
	RequireState bool
}
