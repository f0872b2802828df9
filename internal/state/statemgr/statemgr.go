package statemgr

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/diag"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/journal"
	"github.com/rig-iac/rig/internal/state/statefile"
	"github.com/rig-iac/rig/internal/version"
)

// minFoldSize is the journal size below which it is never folded into the state file.
const minFoldSize = 8 << 20

// Writer persists state for an apply (it implements apply.StateWriter). Whole snapshots go to the
// backend store, increasing the serial each time the content changes and
// skipping writes that change nothing. When the store keeps a journal (the
// local and pg backends do), the results of individual operations are
// appended to it (O(size of the result) per operation), and it is folded
// into a snapshot once it grows past twice the snapshot's size, and at the
// end.
type Writer struct {
	store   backend.Store
	serial  uint64
	lineage string
	// written is the digest of the last snapshot written (or read), its
	// serial aside, and writtenSize its length; written is nil until then.
	// writtenContent is that length without the serial's digits.
	written        *contentSum
	writtenSize    int
	writtenContent int
	// journal is nil when the store keeps none; begun says whether it was
	// begun for the current snapshot, and journalSize what it holds since.
	journal     backend.Journal
	begun       bool
	journalSize int64
	record      []byte // reused for each record
	// startCopied says the state an apply starts from was written to a
	// store that writes elsewhere than it reads (WriteStart).
	startCopied bool
}

// NewWriter returns the writer of an apply that starts from state s as
// the store holds it (its serial, lineage and digest).
func NewWriter(store backend.Store, s *state.State) *Writer {
	w := &Writer{store: store, serial: s.Serial, lineage: s.Lineage, journal: store.Journal()}
	s.TerraformVersion = version.Terraform
	// A state never written (serial 0) is written by the first WriteState,
	// so that a journal always belongs to a state file that exists. The
	// digest of one that was is computed as it is encoded, piece by piece,
	// never holding the whole file.
	if s.Serial > 0 {
		var h contentHasher
		if err := statefile.Write(&h, s); err == nil {
			d, ok := h.sum()
			w.remember(h.size, d, ok, h.size-h.serialLen)
		}
	}
	return w
}

// ForgetStored makes the writer take the state it started from for
// different from what the store holds (a journal read without the lock was
// replayed into it): the run's first write keeps all of it, as a snapshot
// or as the journal's base record, before the journal is begun anew.
func (w *Writer) ForgetStored() { w.written = nil }

// remember records that the store holds size bytes whose content digest
// (when ok) is d and whose content length is contentLen.
func (w *Writer) remember(size int, d contentSum, ok bool, contentLen int) {
	w.writtenSize = size
	if !ok {
		w.written = nil
		return
	}
	w.written, w.writtenContent = &d, contentLen
}

// WriteState implements apply.StateWriter: it writes the whole state, at
// the next serial, unless its content is what was last written, and retires
// the journal, whose content the state file now holds. A serial-0 snapshot
// (the starting point of a first apply, see WriteStart) is always
// superseded, so that the first complete state is serial 1.
func (w *Writer) WriteState(ctx context.Context, s *state.State) error {
	s.TerraformVersion = version.Terraform
	s.Lineage = w.lineage
	if w.written != nil && !w.begun && w.serial > 0 && w.unchanged(s) {
		// Nothing recorded since the last snapshot, and the state is
		// what it holds: checked piece by piece, without the whole file
		// in memory.
		return nil
	}
	if err := w.snapshot(ctx, s, w.serial+1, w.serial > 0); err != nil {
		return err
	}
	return w.retireJournal(ctx)
}

// WriteStart implements apply.StateWriter: it persists s, the state an
// apply starts from, so that the snapshot plus the journal the apply
// appends to always give the apply's state, without counting a serial of
// its own: the apply's state is one serial past the one it started from,
// as in OpenTofu and Terraform. When the store holds no snapshot yet, s is
// written as serial 0, which the journal belongs to; when it holds one and
// s differs from it (the refresh found objects changed or gone), s is the
// journal's first record, a base that replaces the snapshot's content on
// replay. A store without a journal gets the whole snapshot.
func (w *Writer) WriteStart(ctx context.Context, s *state.State) error {
	if w.journal == nil {
		return w.WriteState(ctx, s)
	}
	s.TerraformVersion = version.Terraform
	s.Lineage = w.lineage
	if w.serial == 0 {
		return w.snapshot(ctx, s, 0, false)
	}
	if !w.begun && !w.startCopied && backend.WritesElsewhere(w.store) {
		// Writes go to another file than the one read (-state-out): s
		// is written there first, at the serial read, so that the
		// journal belongs to a file that exists and names its lineage.
		w.startCopied = true
		return w.snapshot(ctx, s, w.serial, false)
	}
	if w.written != nil && !w.begun && w.unchanged(s) {
		return nil
	}
	if err := w.begin(ctx); err != nil {
		return err
	}
	s.Serial = w.serial
	rec, err := journal.Base(w.record[:0], s)
	if err != nil {
		return err
	}
	return w.appendRecord(ctx, rec)
}

// snapshot writes s at serial, skipping the write when skipSame is set and
// its content is the one last written; once written, serial is the
// writer's.
func (w *Writer) snapshot(ctx context.Context, s *state.State, serial uint64, skipSame bool) error {
	if sw, ok := w.store.(backend.StreamWriter); ok {
		return w.stream(ctx, sw, s, serial, skipSame)
	}
	s.Serial = serial
	data, err := statefile.Marshal(s)
	s.Serial = w.serial
	if err != nil {
		return err
	}
	if !skipSame || w.written == nil || contentLen(data) != w.writtenContent {
		// Certainly a change: the digest, needed for the next comparison,
		// is computed while the store writes.
		type digested struct {
			d  contentSum
			ok bool
		}
		done := make(chan digested, 1)
		go func() {
			d, ok := contentDigest(data)
			done <- digested{d, ok}
		}()
		err := w.store.Write(ctx, data)
		dg := <-done
		if err != nil {
			return err
		}
		w.serial = serial
		s.Serial = w.serial
		w.remember(len(data), dg.d, dg.ok, contentLen(data))
	} else if d, ok := contentDigest(data); !ok || d != *w.written {
		if err := w.store.Write(ctx, data); err != nil {
			return err
		}
		w.serial = serial
		s.Serial = w.serial
		w.remember(len(data), d, ok, contentLen(data))
	}
	return nil
}

// retireJournal discards the journal once a snapshot holds its content.
func (w *Writer) retireJournal(ctx context.Context) error {
	if w.begun {
		w.begun = false
		if err := w.journal.Discard(ctx); err != nil {
			return err
		}
	}
	return nil
}

// stream writes s at serial as it is encoded, computing its digest on the
// way; when skipSame is set, a snapshot whose content is the one last
// written is not kept, and the serial stays.
func (w *Writer) stream(ctx context.Context, sw backend.StreamWriter, s *state.State, serial uint64, skipSame bool) error {
	var h contentHasher
	s.Serial = serial
	kept, err := sw.WriteFrom(ctx, func(out io.Writer) (bool, error) {
		if err := statefile.Write(io.MultiWriter(out, &h), s); err != nil {
			return false, err
		}
		d, ok := h.sum()
		same := ok && w.written != nil && h.size-h.serialLen == w.writtenContent && d == *w.written
		return !skipSame || !same, nil
	})
	s.Serial = w.serial
	if err != nil || !kept {
		return err
	}
	w.serial = serial
	s.Serial = w.serial
	d, ok := h.sum()
	w.remember(h.size, d, ok, h.size-h.serialLen)
	return nil
}

// unchanged reports whether s, at the serial of the last snapshot, encodes
// to that snapshot's content, computing the digest as it is encoded.
func (w *Writer) unchanged(s *state.State) bool {
	s.Serial = w.serial
	var h contentHasher
	if err := statefile.Write(&h, s); err != nil {
		return false
	}
	d, ok := h.sum()
	return ok && h.size-h.serialLen == w.writtenContent && d == *w.written
}

// contentDigest returns the digest of a marshalled state without its
// serial, the third key of the document: two snapshots with the same digest
// differ at most in serial.
func contentDigest(data []byte) (digest contentSum, ok bool) {
	var h contentHasher
	h.Write(data)
	return h.sum()
}

// contentHasher computes contentDigest of a marshalled state written to it
// in pieces, the first of which holds the serial field (statefile.Write
// writes at least its first 64 KiB at once).
type contentHasher struct {
	h         *contentHash
	size      int  // bytes written
	serialLen int  // length of the serial field left out
	found     bool // whether the first piece held the serial field
}

// Write hashes p, leaving out the serial field when p is the first piece.
func (c *contentHasher) Write(p []byte) (int, error) {
	if c.h == nil {
		c.h = newContentHash()
		if i, end, ok := serialField(p); ok {
			c.h.Write(p[:i])
			c.h.Write(p[end:])
			c.found, c.serialLen = true, end-i
			c.size += len(p)
			return len(p), nil
		}
	}
	c.h.Write(p)
	c.size += len(p)
	return len(p), nil
}

// sum returns the digest, and false when what was written had no serial field.
func (c *contentHasher) sum() (digest contentSum, ok bool) {
	if !c.found {
		return digest, false
	}
	return c.h.sum(), true
}

// contentLen is the length of a marshalled state without its serial field,
// or -1 when it has none: snapshots of different content lengths differ.
func contentLen(data []byte) int {
	i, end, ok := serialField(data)
	if !ok {
		return -1
	}
	return len(data) - (end - i)
}

// serialField locates the serial field, from its key up to the comma after
// its value, near the start of a marshalled state.
func serialField(data []byte) (start, end int, ok bool) {
	const key = `"serial": `
	head := data[:min(len(data), 200)]
	i := bytes.Index(head, []byte(key))
	if i < 0 {
		return 0, 0, false
	}
	n := bytes.IndexByte(data[i:], ',')
	if n < 0 {
		return 0, 0, false
	}
	return i, i + n, true
}

// WriteChanges implements apply.StateWriter: with a journal, it appends the
// changed objects; otherwise it writes the whole state.
func (w *Writer) WriteChanges(ctx context.Context, s *state.State, changed []addrs.ObjectAddr, outputs bool) error {
	if w.journal == nil {
		return w.WriteState(ctx, s)
	}
	if err := w.begin(ctx); err != nil {
		return err
	}
	s.Lineage, s.Serial, s.TerraformVersion = w.lineage, w.serial, version.Terraform
	rec, err := journal.Record(w.record[:0], s, changed, outputs)
	if err != nil {
		return err
	}
	if err := w.appendRecord(ctx, rec); err != nil {
		return err
	}
	if w.journalSize > max(minFoldSize, 2*int64(w.writtenSize)) {
		return w.WriteState(ctx, s)
	}
	return nil
}

// begin begins the journal for the current snapshot, unless it was.
func (w *Writer) begin(ctx context.Context) error {
	if w.begun {
		return nil
	}
	if err := w.journal.Begin(ctx, w.lineage, w.serial); err != nil {
		return err
	}
	w.begun, w.journalSize = true, 0
	return nil
}

// appendRecord appends rec to the begun journal, keeping its buffer for
// the next record.
func (w *Writer) appendRecord(ctx context.Context, rec []byte) error {
	w.record = rec
	if err := w.journal.Append(ctx, rec); err != nil {
		return err
	}
	w.journalSize += int64(len(rec)) + 1
	return nil
}

// Replay applies the journal a crashed run left beside the state.
// It reports whether anything was replayed; a journal that belongs to an
// older state (the crash came after the fold) is reported and ignored.
func Replay(ctx context.Context, store backend.Store, s *state.State) (bool, diag.Diagnostics) {
	j := store.Journal()
	if j == nil {
		return false, nil
	}
	c, err := j.Load(ctx)
	if err != nil {
		return false, diag.Diagnostics{diag.Errorf("Failed to load state", "%s. The state and the journal were left untouched.", err)}
	}
	if c == nil || len(c.Records) == 0 {
		return false, nil
	}
	if c.Lineage != s.Lineage || c.Serial != s.Serial {
		return false, diag.Diagnostics{{Severity: diag.Warning, Summary: "Ignoring an old state journal",
			Detail: fmt.Sprintf("The state journal does not belong to the current state (journal: lineage %s serial %d; state: lineage %s serial %d); its changes are already in the state or were superseded. It is left in place.", c.Lineage, c.Serial, s.Lineage, s.Serial)}}
	}
	if err := journal.Replay(s, c.Records); err != nil {
		return false, diag.Diagnostics{diag.Errorf("Failed to load state", "Reading the state journal: %s. The state and the journal were left untouched.", err)}
	}
	return true, nil
}

// Recover folds the journal a crashed run left beside the state into
// a new snapshot; the caller holds the state lock.
func Recover(ctx context.Context, store backend.Store, s *state.State) diag.Diagnostics {
	replayed, ds := Replay(ctx, store, s)
	if !replayed || ds.HasErrors() {
		return ds
	}
	// No digest of what was read: the state is written, and the journal discarded.
	w := &Writer{store: store, serial: s.Serial, lineage: s.Lineage, journal: store.Journal(), begun: true}
	if err := w.WriteState(ctx, s); err != nil {
		return ds.Append(diag.Errorf("Failed to persist state", "Folding the state journal into the state: %s", err))
	}
	return ds.Append(diag.Diagnostic{Severity: diag.Warning, Summary: "Recovered operations from an interrupted run",
		Detail: "The previous run ended before it finished writing the state; the operations it completed were recovered from its journal and are now in the state."})
}

// Next returns the lineage and serial the next snapshot w writes would
// have: what a state saved elsewhere instead (errored.tfstate) records.
func (w *Writer) Next() (lineage string, serial uint64) { return w.lineage, w.serial + 1 }
