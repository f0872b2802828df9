package backend

// ElsewhereWriter is a Store whose snapshots may go to another place than
// the one it reads (the local backend with -state-out).
type ElsewhereWriter interface {
	// WritesElsewhere reports whether writes go to another place than
	// the snapshot Read returns.
	WritesElsewhere() bool
}

// WritesElsewhere reports whether store writes its snapshots to another
// place than the one it reads them from; a journal then belongs to a file
// the first write creates.
func WritesElsewhere(store Store) bool {
	e, ok := store.(ElsewhereWriter)
	return ok && e.WritesElsewhere()
}
