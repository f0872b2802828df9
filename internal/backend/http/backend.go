package http

import (
	"context"
	"encoding/json"
	"fmt"
	nethttp "net/http"
	"net/url"

	"github.com/rig-iac/rig/internal/backend"
)

// Backend is the http backend: one state at Config.Address. It is safe for
// concurrent use.
type Backend struct {
	cfg    Config
	client *client
	// The parsed addresses; lock and unlock are nil when not configured.
	state, lock, unlock *url.URL
}

var _ backend.Backend = (*Backend)(nil)

// New checks cfg (Validate) and returns the backend. It sends no request.
func New(cfg Config) (*Backend, error) {
	if cfg.UpdateMethod == "" {
		cfg.UpdateMethod = DefaultUpdateMethod
	}
	if cfg.LockMethod == "" {
		cfg.LockMethod = DefaultLockMethod
	}
	if cfg.UnlockMethod == "" {
		cfg.UnlockMethod = DefaultUnlockMethod
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("http backend: %w", err)
	}
	c, err := newClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("http backend: %w", err)
	}
	b := &Backend{cfg: cfg, client: c}
	b.state, _ = parseURL("address", cfg.Address)
	if cfg.LockAddress != "" {
		b.lock, _ = parseURL("lockAddress", cfg.LockAddress)
	}
	if cfg.UnlockAddress != "" {
		b.unlock, _ = parseURL("unlockAddress", cfg.UnlockAddress)
	}
	return b, nil
}

// Workspaces implements backend.Backend: only the default workspace.
func (b *Backend) Workspaces(context.Context) ([]string, error) {
	return []string{backend.DefaultWorkspace}, nil
}

// DeleteWorkspace implements backend.Backend: the default workspace cannot
// be deleted, and there is no other.
func (b *Backend) DeleteWorkspace(_ context.Context, name string) error {
	if name == backend.DefaultWorkspace {
		return backend.ErrDefaultWorkspace
	}
	return backend.ErrWorkspacesNotSupported
}

// Store implements backend.Backend; a workspace other than the default one
// is backend.ErrWorkspacesNotSupported.
func (b *Backend) Store(_ context.Context, workspace string) (backend.Store, error) {
	if workspace != backend.DefaultWorkspace {
		if err := backend.ValidateWorkspaceName(workspace); err != nil {
			return nil, err
		}
		return nil, backend.ErrWorkspacesNotSupported
	}
	return &Store{b: b}, nil
}

// Store is the state at the backend's address. It remembers the lock it
// took, so that its writes name it (?ID=…) and its Unlock sends the lock's
// information.
type Store struct {
	b    *Backend
	held *backend.LockInfo // the lock this Store took, nil when none
}

var _ backend.Store = (*Store)(nil)

// Path implements backend.Store: the address without its password.
func (s *Store) Path() string { return s.b.state.Redacted() }

// Journal implements backend.Store: none, every write is a whole snapshot.
func (s *Store) Journal() backend.Journal { return nil }

// Read implements backend.Store with a GET of the address.
func (s *Store) Read(ctx context.Context) ([]byte, error) {
	resp, err := s.b.client.do(ctx, nethttp.MethodGet, s.b.state, nil, "get state")
	if err != nil {
		return nil, err
	}
	switch resp.status {
	case nethttp.StatusOK:
	case nethttp.StatusNoContent, nethttp.StatusNotFound:
		return nil, nil
	default:
		return nil, statusError("get state", resp)
	}
	if len(resp.body) == 0 {
		return nil, nil
	}
	return resp.body, nil
}

// Write implements backend.Store: update_method with the snapshot, naming
// the lock this Store holds; an empty snapshot deletes the state.
func (s *Store) Write(ctx context.Context, data []byte) error {
	if len(data) == 0 {
		resp, err := s.b.client.do(ctx, nethttp.MethodDelete, s.b.state, nil, "delete state")
		if err != nil {
			return err
		}
		switch resp.status {
		case nethttp.StatusOK, nethttp.StatusNoContent, nethttp.StatusNotFound:
			return nil
		}
		return statusError("delete state", resp)
	}
	u := *s.b.state
	if s.held != nil {
		q := u.Query()
		q.Set("ID", s.held.ID)
		u.RawQuery = q.Encode()
	}
	resp, err := s.b.client.do(ctx, s.b.cfg.UpdateMethod, &u, data, "upload state")
	if err != nil {
		return err
	}
	switch resp.status {
	case nethttp.StatusOK, nethttp.StatusCreated, nethttp.StatusNoContent:
		return nil
	}
	return statusError("upload state", resp)
}

// Lock implements backend.Store. Without a lock_address it sends nothing
// and returns the ID, as Terraform and OpenTofu do.
func (s *Store) Lock(ctx context.Context, info backend.LockInfo) (string, error) {
	if s.held != nil {
		holder := *s.held
		return "", &backend.LockError{Info: &holder, Err: backend.ErrLocked}
	}
	if info.ID == "" {
		info.ID = backend.NewLockInfo(info.Operation).ID
	}
	if info.Path == "" {
		info.Path = s.Path()
	}
	if s.b.lock == nil {
		return info.ID, nil
	}
	body, err := json.Marshal(info)
	if err != nil {
		return "", fmt.Errorf("lock: %w", err)
	}
	resp, err := s.b.client.do(ctx, s.b.cfg.LockMethod, s.b.lock, body, "lock")
	if err != nil {
		return "", err
	}
	switch resp.status {
	case nethttp.StatusOK:
		s.held = &info
		return info.ID, nil
	case nethttp.StatusConflict, nethttp.StatusLocked:
		return "", &backend.LockError{Info: holderInfo(resp.body), Err: fmt.Errorf("%w: the HTTP server answered %d %s", backend.ErrLocked, resp.status, nethttp.StatusText(resp.status))}
	}
	return "", statusError("lock", resp)
}

// holderInfo reads the lock information a server sent with 409 or 423, nil
// when the body is not a lock.
func holderInfo(body []byte) *backend.LockInfo {
	var info backend.LockInfo
	if err := json.Unmarshal(body, &info); err != nil || info.ID == "" {
		return nil
	}
	return &info
}

// Unlock implements backend.Store: unlock_method to unlock_address with the
// lock's information (only {"ID": id} for a lock another Store took, as
// force-unlock sends it). Without an unlock_address it sends nothing, as
// Terraform and OpenTofu do, nor without a lock_address (no lock was taken). An ID that is not this Store's lock fails
// without a request.
func (s *Store) Unlock(ctx context.Context, id string) error {
	info := backend.LockInfo{ID: id}
	if s.held != nil {
		if s.held.ID != id {
			holder := *s.held
			return &backend.LockError{Info: &holder, Err: fmt.Errorf("lock id %q does not match existing lock", id)}
		}
		info = *s.held
	}
	if s.b.lock == nil || s.b.unlock == nil {
		s.held = nil
		return nil
	}
	body, err := json.Marshal(info)
	if err != nil {
		return fmt.Errorf("unlock: %w", err)
	}
	resp, err := s.b.client.do(ctx, s.b.cfg.UnlockMethod, s.b.unlock, body, "unlock")
	if err != nil {
		return err
	}
	switch resp.status {
	case nethttp.StatusOK, nethttp.StatusNoContent:
		s.held = nil
		return nil
	case nethttp.StatusConflict, nethttp.StatusLocked:
		return &backend.LockError{Info: holderInfo(resp.body), Err: fmt.Errorf("unlocking %s: the HTTP server answered %d %s", id, resp.status, nethttp.StatusText(resp.status))}
	}
	return statusError("unlock", resp)
}

// statusError describes an answer the protocol does not expect, in the
// words Terraform and OpenTofu use for the common ones.
func statusError(what string, resp *response) error {
	switch resp.status {
	case nethttp.StatusUnauthorized:
		return fmt.Errorf("%s: HTTP remote state endpoint requires auth", what)
	case nethttp.StatusForbidden:
		return fmt.Errorf("%s: HTTP remote state endpoint invalid auth", what)
	case nethttp.StatusInternalServerError:
		return fmt.Errorf("%s: HTTP remote state internal server error", what)
	}
	return fmt.Errorf("%s: unexpected HTTP response code %d", what, resp.status)
}
