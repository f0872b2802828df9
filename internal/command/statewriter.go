package command

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/local"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/journal"
	"github.com/rig-iac/rig/internal/state/statefile"
)

// minFoldSize is the journal size below which it is never folded into the state file.
const minFoldSize = 8 << 20

// stateWriter persists state for an apply. Whole snapshots go to the
// backend store, increasing the serial each time the content changes and
// skipping writes that change nothing. For a local state, the results of
// individual operations are appended to a journal beside the state file
// (O(size of the result) per operation), which is folded into the state
// file once it grows past twice the state's size, and at the end.
type stateWriter struct {
	store   backend.Store
	serial  uint64
	lineage string
	// written is the digest of the last snapshot written (or read), its
	// serial aside, and writtenSize its length; written is nil until then.
	written     *[sha256.Size]byte
	writtenSize int
	// journalPath is "" when the store keeps no journal.
	journalPath string
	journal     *journal.Writer
}

func newStateWriter(store backend.Store, s *state.State) *stateWriter {
	w := &stateWriter{store: store, serial: s.Serial, lineage: s.Lineage}
	if ls, ok := store.(*local.Store); ok {
		w.journalPath = journalPath(ls)
	}
	s.TerraformVersion = StateTerraformVersion
	// A state never written (serial 0) is written by the first WriteState,
	// so that a journal always belongs to a state file that exists.
	if s.Serial > 0 {
		if data, err := statefile.Marshal(s); err == nil {
			w.remember(data)
		}
	}
	return w
}

func journalPath(ls *local.Store) string { return ls.Path() + ".journal" }

// remember records data as the content of the store.
func (w *stateWriter) remember(data []byte) {
	d, ok := contentDigest(data)
	if !ok {
		w.written = nil
		return
	}
	w.written, w.writtenSize = &d, len(data)
}

// WriteState implements apply.StateWriter: it writes the whole state, at
// the next serial, unless its content is what was last written, and retires
// the journal, whose content the state file now holds.
func (w *stateWriter) WriteState(ctx context.Context, s *state.State) error {
	s.TerraformVersion = StateTerraformVersion
	s.Lineage = w.lineage
	s.Serial = w.serial + 1
	data, err := statefile.Marshal(s)
	s.Serial = w.serial
	if err != nil {
		return err
	}
	if d, ok := contentDigest(data); !ok || w.written == nil || d != *w.written {
		if err := w.store.Write(ctx, data); err != nil {
			return err
		}
		w.serial++
		s.Serial = w.serial
		w.remember(data)
	}
	if w.journal != nil {
		err := w.journal.Remove()
		w.journal = nil
		return err
	}
	return nil
}

// contentDigest returns the SHA-256 of a marshalled state without its
// serial, the third key of the document: two snapshots with the same digest
// differ at most in serial.
func contentDigest(data []byte) (digest [sha256.Size]byte, ok bool) {
	const key = `"serial": `
	head := data[:min(len(data), 200)]
	i := bytes.Index(head, []byte(key))
	if i < 0 {
		return digest, false
	}
	end := bytes.IndexByte(data[i:], ',')
	if end < 0 {
		return digest, false
	}
	h := sha256.New()
	h.Write(data[:i])
	h.Write(data[i+end:])
	h.Sum(digest[:0])
	return digest, true
}

// WriteChanges implements apply.StateWriter: with a journal, it appends the
// changed objects; otherwise it writes the whole state.
func (w *stateWriter) WriteChanges(ctx context.Context, s *state.State, changed []addrs.ObjectAddr, outputs bool) error {
	if w.journalPath == "" {
		return w.WriteState(ctx, s)
	}
	if w.journal == nil {
		j, err := journal.Create(w.journalPath, w.lineage, w.serial)
		if err != nil {
			return err
		}
		w.journal = j
	}
	s.Lineage, s.Serial, s.TerraformVersion = w.lineage, w.serial, StateTerraformVersion
	if err := w.journal.Append(s, changed, outputs); err != nil {
		return err
	}
	if w.journal.Size() > max(minFoldSize, 2*int64(w.writtenSize)) {
		return w.WriteState(ctx, s)
	}
	return nil
}

// replayJournal applies a journal a crashed run left beside a local state.
// It reports whether anything was replayed; a journal that belongs to an
// older state (the crash came after the fold) is reported and ignored.
func replayJournal(store backend.Store, s *state.State) (bool, diag.Diagnostics) {
	ls, ok := store.(*local.Store)
	if !ok {
		return false, nil
	}
	path := journalPath(ls)
	n, err := journal.Replay(path, s)
	switch {
	case errors.Is(err, journal.ErrMismatch):
		return false, diag.Diagnostics{{Severity: diag.Warning, Summary: "Ignoring an old state journal",
			Detail: fmt.Sprintf("%s does not belong to the current state (%s); its changes are already in the state file or were superseded. It is left in place.", path, err)}}
	case err != nil:
		return false, diag.Diagnostics{diag.Errorf("Failed to load state", "%s. The state file and the journal were left untouched.", err)}
	}
	return n > 0, nil
}

// recoverJournal folds a journal a crashed run left beside a local state
// into the state file; the caller holds the state lock.
func recoverJournal(ctx context.Context, store backend.Store, s *state.State) diag.Diagnostics {
	replayed, ds := replayJournal(store, s)
	if !replayed || ds.HasErrors() {
		return ds
	}
	w := newStateWriter(store, s)
	w.written = nil
	if err := w.WriteState(ctx, s); err != nil {
		return ds.Append(diag.Errorf("Failed to persist state", "Folding the state journal into the state file: %s", err))
	}
	if err := os.Remove(journalPath(store.(*local.Store))); err != nil {
		return ds.Append(diag.Errorf("Failed to remove the state journal", "%s", err))
	}
	return ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Recovered operations from an interrupted run",
		Detail: "The previous run ended before it finished writing the state; the operations it completed were recovered from its journal and are now in the state file."})
}
