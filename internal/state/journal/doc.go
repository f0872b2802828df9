// Package journal owns the state journal: an append-only, fsync'd file of
// completed changes kept beside a state file, so that persisting one
// operation's result costs the size of that result rather than a rewrite
// of the whole state, and a run killed at any moment loses nothing that was
// acknowledged. The journal is folded into the state file periodically and at
// the end of a run, and replayed onto the state file by the next run after a
// crash.
//
// It imports internal/addrs, internal/state and internal/state/statefile.
package journal
