//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package local

import (
	"context"
	"errors"
	"fmt"

	"github.com/rig-iac/rig/internal/backend"
)

type heldLock struct{}

var errNoLocking = errors.New("state locking is not supported on this operating system; use -lock=false")

// Lock implements backend.Store; this platform has no locking.
func (s *Store) Lock(ctx context.Context, info backend.LockInfo) (string, error) {
	return "", fmt.Errorf("locking state %s: %w", s.path, errNoLocking)
}

// Unlock implements backend.Store; this platform has no locking.
func (s *Store) Unlock(ctx context.Context, id string) error {
	return fmt.Errorf("unlocking state %s: %w", s.path, errNoLocking)
}
