// Package statemgr owns the durability of a workspace's state: writing
// snapshots (each at the next serial, only when their content changed),
// appending each operation's result to the store's journal and folding
// the journal into a snapshot, and replaying the journal a crashed run
// left beside its snapshot.
//
// Its contract: when Writer.WriteChanges or Writer.WriteState returns nil,
// what it was given is durable — a later Read of the store, plus Replay of
// its journal, gives it back — so a caller may start what depends on it;
// a journal belongs to the snapshot of its lineage and serial and is
// ignored (with a warning) beside any other; Recover, run under the state
// lock, folds a journal into a new snapshot before anything else reads it.
// The stores and their journals are internal/backend's.
//
// It imports internal/addrs, internal/backend, internal/diag,
// internal/state, internal/state/journal, internal/state/statefile and
// internal/version.
package statemgr
