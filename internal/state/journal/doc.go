// Package journal owns the records of the state journal: what one batch of
// completed operations changed in a state (the objects set, the objects
// removed, the root outputs) or, first, the whole state an apply starts
// from (a base record), encoded as one line of JSON, and the replay of such
// records onto the state they were recorded against. Where the records
// are kept is a backend's business (backend.Journal): persisting one
// operation's result then costs the size of that result rather than a
// rewrite of the whole state.
//
// It imports internal/addrs, internal/state and internal/state/statefile.
package journal
