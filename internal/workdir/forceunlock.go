package workdir

import (
	"context"
	"errors"
	"fmt"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/config"
	"github.com/rig-iac/rig/internal/diag"
)

// HeldLock is the lock force-unlock was asked to break.
type HeldLock struct {
	// Store is the state store it locks.
	Store backend.Store
	// Err says who holds it.
	Err *backend.LockError
	// OnServer says the lock lives on a server and outlives its holder
	// (http; s3's lock object and DynamoDB item), so that it may be
	// broken; rig's other locks are released when their holder exits.
	OnServer bool
}

// Holder names who holds the lock, as far as it says.
func (h *HeldLock) Holder() string {
	if h.Err.Info == nil {
		return "another process"
	}
	return fmt.Sprintf("%s (%s)", h.Err.Info.Who, h.Err.Info.Operation)
}

// FindLock returns the lock with ID id on the state store of cfg's
// backend, for force-unlock to break. It is an error when the state is
// not locked, or is locked under another ID.
func (d *Dir) FindLock(ctx context.Context, cfg *config.Module, id string) (*HeldLock, diag.Diagnostics) {
	store, ds := d.StateStore(ctx, cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	held, err := store.Lock(ctx, backend.NewLockInfo("OperationTypeInvalid"))
	if err == nil {
		// Nobody holds it: there is nothing to unlock.
		_ = store.Unlock(ctx, held)
		return nil, diag.Diagnostics{diag.Errorf("Failed to unlock state",
			"The state is not locked, so there is no lock %s to unlock.", id)}
	}
	var le *backend.LockError
	if !errors.As(err, &le) {
		return nil, diag.Diagnostics{diag.Errorf("Failed to unlock state", "Checking the state lock: %s", err)}
	}
	if le.Info != nil && le.Info.ID != "" && le.Info.ID != id {
		return nil, diag.Diagnostics{diag.Errorf("Failed to unlock state",
			"The lock ID %q does not match the lock that is held:\n\n%s", id, le.Info.String())}
	}
	typ := BackendType(cfg)
	return &HeldLock{Store: store, Err: le, OnServer: typ == "http" || typ == "s3"}, nil
}
