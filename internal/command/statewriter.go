package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

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
	// last is the last snapshot written (or read), at serial.
	last []byte
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
	if data, err := statefile.Marshal(s); err == nil && s.Serial > 0 {
		w.last = data
	}
	return w
}

func journalPath(ls *local.Store) string { return ls.Path() + ".journal" }

// WriteState implements apply.StateWriter: it writes the whole state and
// retires the journal, whose content the state file now holds.
func (w *stateWriter) WriteState(ctx context.Context, s *state.State) error {
	s.TerraformVersion = StateTerraformVersion
	s.Lineage = w.lineage
	s.Serial = w.serial
	data, err := statefile.Marshal(s)
	if err != nil {
		return err
	}
	if w.last == nil || !bytes.Equal(data, w.last) {
		next, err := withSerial(data, w.serial, w.serial+1)
		if err != nil {
			return err
		}
		if err := w.store.Write(ctx, next); err != nil {
			return err
		}
		w.serial++
		s.Serial = w.serial
		w.last = next
	}
	if w.journal != nil {
		err := w.journal.Remove()
		w.journal = nil
		return err
	}
	return nil
}

// withSerial returns a marshalled state with its serial changed, without
// encoding the state again: the serial is the third key of the document.
func withSerial(data []byte, from, to uint64) ([]byte, error) {
	old := []byte(`"serial": ` + strconv.FormatUint(from, 10) + ",")
	i := bytes.Index(data, old)
	if i < 0 || i > 200 {
		return nil, fmt.Errorf("encoding state: serial not found")
	}
	out := make([]byte, 0, len(data)+4)
	out = append(out, data[:i]...)
	out = append(out, `"serial": `+strconv.FormatUint(to, 10)+","...)
	return append(out, data[i+len(old):]...), nil
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
	if w.journal.Size() > max(minFoldSize, 2*int64(len(w.last))) {
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
	w.last = nil
	if err := w.WriteState(ctx, s); err != nil {
		return ds.Append(diag.Errorf("Failed to persist state", "Folding the state journal into the state file: %s", err))
	}
	if err := os.Remove(journalPath(store.(*local.Store))); err != nil {
		return ds.Append(diag.Errorf("Failed to remove the state journal", "%s", err))
	}
	return ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Recovered operations from an interrupted run",
		Detail: "The previous run ended before it finished writing the state; the operations it completed were recovered from its journal and are now in the state file."})
}
