package backend

import "context"

// Journal is an append-only log kept beside a Store's snapshot: records of
// the operations completed since that snapshot was written, each durable on
// its own, so that persisting one operation's result costs the size of that
// result rather than a rewrite of the whole state. A journal belongs to one
// snapshot, named by its lineage and serial; the next snapshot written makes
// it obsolete. Like its Store, a Journal is used by one goroutine at a time,
// by the holder of the workspace's lock.
type Journal interface {
	// Begin starts an empty journal for the snapshot with the given lineage
	// and serial, replacing any journal there. It is durable on return.
	Begin(ctx context.Context, lineage string, serial uint64) error
	// Append adds one record: opaque bytes without a newline. It is durable
	// on return. A record whose Append did not return may or may not be
	// loaded later; records are loaded in the order they were appended.
	Append(ctx context.Context, record []byte) error
	// Load returns the journal, or nil, nil when there is none.
	Load(ctx context.Context) (*JournalContent, error)
	// Discard removes the journal; a missing journal is not an error.
	Discard(ctx context.Context) error
}

// JournalContent is what Journal.Load returns: the snapshot the journal
// belongs to and its records, in order.
type JournalContent struct {
	Lineage string
	Serial  uint64
	Records [][]byte
}
