package command

import (
	"context"
	"testing"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/local"
)

// holdLocalLock locks the state of the default workspace in dir as
// another run would hold it: alice@build-host, running an apply. It
// returns the lock's ID and the function that releases it (safe to call
// from another goroutine).
func holdLocalLock(t *testing.T, dir string) (id string, unlock func()) {
	t.Helper()
	ctx := context.Background()
	store, err := local.New(dir, local.Options{}).Store(ctx, "default")
	if err != nil {
		t.Fatal(err)
	}
	info := backend.NewLockInfo("OperationTypeApply")
	info.Who = "alice@build-host"
	id, err = store.Lock(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	return id, func() { _ = store.Unlock(ctx, id) }
}
