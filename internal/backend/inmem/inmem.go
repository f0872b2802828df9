package inmem

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/rig-iac/rig/internal/backend"
)

// Backend is an in-memory backend.Backend. The zero value is not usable;
// call New. It is safe for concurrent use.
type Backend struct {
	mu         sync.Mutex // guards workspaces and everything in them
	workspaces map[string]*workspace
}

// workspace is one workspace's snapshot and lock, guarded by Backend.mu.
type workspace struct {
	data   []byte
	lock   *backend.LockInfo // nil when unlocked
	holder *Store            // the Store value that holds lock
}

var (
	_ backend.Backend = (*Backend)(nil)
	_ backend.Store   = (*Store)(nil)
)

// New returns an empty backend with only the default workspace.
func New() *Backend { return &Backend{workspaces: map[string]*workspace{}} }

// Workspaces implements backend.Backend.
func (b *Backend) Workspaces(ctx context.Context) ([]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	names := []string{backend.DefaultWorkspace}
	for name := range b.workspaces {
		if name != backend.DefaultWorkspace {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names, nil
}

// DeleteWorkspace implements backend.Backend. A lock held on the workspace
// is dropped with it.
func (b *Backend) DeleteWorkspace(ctx context.Context, name string) error {
	if name == backend.DefaultWorkspace {
		return backend.ErrDefaultWorkspace
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.workspaces[name] == nil {
		return fmt.Errorf("deleting workspace %q: %w", name, backend.ErrWorkspaceNotFound)
	}
	delete(b.workspaces, name)
	return nil
}

// Store implements backend.Backend.
func (b *Backend) Store(ctx context.Context, name string) (backend.Store, error) {
	if err := backend.ValidateWorkspaceName(name); err != nil {
		return nil, err
	}
	return &Store{b: b, name: name}, nil
}

// Store is one workspace's store in a Backend.
type Store struct {
	b    *Backend
	name string
}

// ws returns the workspace, creating it if create is set; b.mu must be held.
func (s *Store) ws(create bool) *workspace {
	w := s.b.workspaces[s.name]
	if w == nil && create {
		w = &workspace{}
		s.b.workspaces[s.name] = w
	}
	return w
}

// Read implements backend.Store.
func (s *Store) Read(ctx context.Context) ([]byte, error) {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	if w := s.ws(false); w != nil && w.data != nil {
		return bytes.Clone(w.data), nil
	}
	return nil, nil
}

// Write implements backend.Store.
func (s *Store) Write(ctx context.Context, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	d := bytes.Clone(data)
	if d == nil {
		d = []byte{}
	}
	s.ws(true).data = d
	return nil
}

// Lock implements backend.Store.
func (s *Store) Lock(ctx context.Context, info backend.LockInfo) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	w := s.ws(true)
	if w.lock != nil {
		held := *w.lock
		return "", &backend.LockError{Info: &held, Err: backend.ErrLocked}
	}
	if info.ID == "" {
		info.ID = backend.NewLockInfo(info.Operation).ID
	}
	info.Path = s.name
	w.lock, w.holder = &info, s
	return info.ID, nil
}

// Unlock implements backend.Store.
func (s *Store) Unlock(ctx context.Context, id string) error {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	w := s.ws(false)
	if w == nil || w.lock == nil || w.holder != s {
		return fmt.Errorf("unlocking workspace %q: this store holds no lock", s.name)
	}
	if w.lock.ID != id {
		return fmt.Errorf("unlocking workspace %q: lock ID %q does not match the held lock %q", s.name, id, w.lock.ID)
	}
	w.lock, w.holder = nil, nil
	return nil
}

// Path implements backend.Store: the workspace's name.
func (s *Store) Path() string { return s.name }

// Journal implements backend.Store: an in-memory state keeps no journal.
func (s *Store) Journal() backend.Journal { return nil }
