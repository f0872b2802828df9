package backend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
)

// DefaultWorkspace is the workspace that always exists and cannot be deleted.
const DefaultWorkspace = "default"

// Backend holds the state of each workspace. Implementations are safe for
// concurrent use.
type Backend interface {
	// Workspaces returns the names of the workspaces that have a state (or
	// a lock), sorted; it always includes DefaultWorkspace.
	Workspaces(ctx context.Context) ([]string, error)
	// DeleteWorkspace removes a workspace and its state. Deleting
	// DefaultWorkspace fails with ErrDefaultWorkspace, and deleting one that
	// does not exist with ErrWorkspaceNotFound. It does not take the lock:
	// the caller locks the workspace's Store first if it must.
	DeleteWorkspace(ctx context.Context, name string) error
	// Store returns the state store of a workspace. It fails only for an
	// invalid name (see ValidateWorkspaceName), and creates nothing: a
	// workspace comes to exist when its Store is first written or locked.
	Store(ctx context.Context, workspace string) (Store, error)
}

// StreamWriter is a Store that takes a snapshot as it is encoded, never
// holding the whole of it in memory (the local file store).
type StreamWriter interface {
	// WriteFrom replaces the snapshot with what encode writes to w, with
	// Write's guarantees, unless encode fails or says not to keep it
	// (keep false): the snapshot is then left as it was. It reports
	// whether the snapshot was replaced.
	WriteFrom(ctx context.Context, encode func(w io.Writer) (keep bool, err error)) (bool, error)
}

// Store is one workspace's state snapshot and its lock. A Store value is
// used by one goroutine at a time; two Store values for the same workspace
// (in one process or several) exclude each other through the lock.
type Store interface {
	// Read returns the latest snapshot written, or nil, nil when there is no
	// state yet. The caller owns the returned slice.
	Read(ctx context.Context) ([]byte, error)
	// Write replaces the snapshot. When it returns nil the new snapshot is
	// durable (it survives a crash of the process or the machine) and a
	// concurrent or later Read sees either the old or the new one, never a
	// mixture. Write does not check the lock: callers lock first. The
	// store does not keep data after Write returns.
	Write(ctx context.Context, data []byte) error
	// Lock tries once to take the workspace's lock, recording info with it,
	// and returns the lock ID (info.ID, or a new one when info.ID is empty).
	// If the lock is held, by another Store value or by this one, it
	// returns a *LockError carrying the holder's LockInfo (when readable);
	// other errors are failures to lock at all.
	Lock(ctx context.Context, info LockInfo) (string, error)
	// Unlock releases the lock taken with the given ID; it fails if this
	// Store does not hold a lock with that ID. A store whose locks outlive
	// the process that took them (http: the server's; s3: an object, a
	// DynamoDB item) releases the workspace's lock for any Store value
	// given its ID, so that a lock left by a holder that died can be
	// broken (rig force-unlock).
	Unlock(ctx context.Context, id string) error
	// Journal returns the workspace's journal, or nil when the store keeps
	// none (its users then write whole snapshots).
	Journal() Journal
	// Path says where the snapshot is kept, for messages and lock
	// information: a file's path, a database row's schema, table and name.
	Path() string
}

// Errors a Backend or Store may return, wrapped; test them with errors.Is.
var (
	// ErrLocked: the state is locked by someone else (the Err of a
	// LockError that an implementation reports for contention).
	ErrLocked = errors.New("the state is locked")
	// ErrDefaultWorkspace: DeleteWorkspace was asked to delete "default".
	ErrDefaultWorkspace = errors.New(`the "default" workspace cannot be deleted`)
	// ErrWorkspaceNotFound: DeleteWorkspace was given a name no workspace has.
	ErrWorkspaceNotFound = errors.New("workspace does not exist")
	// ErrWorkspacesNotSupported: the backend keeps a single state, the
	// default workspace's (Terraform's and OpenTofu's words).
	ErrWorkspacesNotSupported = errors.New("workspaces not supported")
)

// ValidateWorkspaceName accepts the names Terraform accepts: non-empty,
// made only of URL-safe characters (so no path separators), and for
// safety as a directory name neither "." nor "..".
func ValidateWorkspaceName(name string) error {
	if name == "" || name == "." || name == ".." || url.PathEscape(name) != name {
		return fmt.Errorf("the workspace name %q is not allowed: it must be non-empty and contain only URL-safe characters, and no path separators", name)
	}
	return nil
}
