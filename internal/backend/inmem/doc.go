// Package inmem owns an in-memory backend.Backend for tests: workspaces and
// snapshots in maps, with the same lock semantics as the local backend
// between Store values of one Backend (a held lock is reported to every
// other Store value, and to the holder itself, as a *backend.LockError).
//
// It imports only the standard library and internal/backend.
package inmem
