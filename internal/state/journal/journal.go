package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/rig-iac/rig/internal/addrs"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statefile"
)

// formatVersion identifies the journal format in its header line.
const formatVersion = 1

// header is the first line of a journal: the state it applies to.
type header struct {
	Journal int    `json:"rig_state_journal"`
	Lineage string `json:"lineage"`
	Serial  uint64 `json:"serial"`
}

// record is one committed batch of changes: the objects set (as a partial
// version-4 state holding only them), the objects removed, and the root
// outputs when they changed.
type record struct {
	Set     json.RawMessage `json:"set,omitempty"`
	Removed []removedObject `json:"removed,omitempty"`
	Outputs bool            `json:"outputs,omitempty"`
}

type removedObject struct {
	Addr    string `json:"addr"`
	Deposed string `json:"deposed,omitempty"`
}

// Writer appends records to a journal file. It is not safe for concurrent
// use: the apply recorder goroutine owns it.
type Writer struct {
	f    *os.File
	path string
	size int64
	line []byte // reused for each record
}

// Create starts a new, empty journal at path for the state with the given
// lineage and serial (replacing any journal there), durably.
func Create(path, lineage string, serial uint64) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("creating state journal %s: %w", path, err)
	}
	w := &Writer{f: f, path: path}
	line, _ := json.Marshal(header{Journal: formatVersion, Lineage: lineage, Serial: serial})
	if err := w.writeLine(line); err != nil {
		f.Close()
		return nil, err
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// Size returns the journal's size in bytes.
func (w *Writer) Size() int64 { return w.size }

// Path returns the journal's path.
func (w *Writer) Path() string { return w.path }

// Append durably records the current content of the changed objects of s
// (an object absent from s is recorded as removed) and, when outputs is set,
// the root outputs. It returns once the record is on disk.
func (w *Writer) Append(s *state.State, changed []addrs.ObjectAddr, outputs bool) error {
	part := &state.State{Lineage: s.Lineage, Serial: s.Serial, TerraformVersion: s.TerraformVersion,
		Outputs: map[string]state.OutputValue{}, Resources: map[addrs.AbsResource]*state.Resource{}}
	var rec record
	for _, addr := range changed {
		obj := s.Object(addr)
		if obj == nil {
			rec.Removed = append(rec.Removed, removedObject{Addr: addr.Instance.String(), Deposed: string(addr.Deposed)})
			continue
		}
		part.SetObject(addr, obj, s.Resource(addr.Instance.ContainingResource()).ProviderConfig)
	}
	if outputs {
		rec.Outputs = true
		part.Outputs = s.Outputs
	}
	// The record is written by hand rather than through encoding/json, which
	// would validate and copy the embedded state twice over.
	line := append(w.line[:0], '{')
	if len(part.Resources) > 0 || outputs {
		data, err := statefile.Marshal(part)
		if err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		line = append(line, `"set":`...)
		line = appendOneLine(line, data)
	}
	if len(rec.Removed) > 0 {
		removed, err := json.Marshal(rec.Removed)
		if err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		if len(line) > 1 {
			line = append(line, ',')
		}
		line = append(line, `"removed":`...)
		line = append(line, removed...)
	}
	if outputs {
		if len(line) > 1 {
			line = append(line, ',')
		}
		line = append(line, `"outputs":true`...)
	}
	line = append(line, '}')
	w.line = line
	return w.writeLine(line)
}

// appendOneLine appends the JSON document src without its line breaks and
// the indentation after them. JSON strings cannot hold a raw newline, so
// every newline in src is between tokens.
func appendOneLine(dst, src []byte) []byte {
	for len(src) > 0 {
		nl := bytes.IndexByte(src, '\n')
		if nl < 0 {
			return append(dst, src...)
		}
		dst = append(dst, src[:nl]...)
		src = bytes.TrimLeft(src[nl+1:], " \t")
	}
	return dst
}

func (w *Writer) writeLine(line []byte) error {
	n, err := w.f.Write(append(line, '\n'))
	w.size += int64(n)
	if err != nil {
		return fmt.Errorf("writing state journal %s: %w", w.path, err)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("syncing state journal %s: %w", w.path, err)
	}
	return nil
}

// Close closes the journal file, leaving it on disk.
func (w *Writer) Close() error { return w.f.Close() }

// Remove closes and deletes the journal: its content is in the state file.
func (w *Writer) Remove() error {
	w.f.Close()
	if err := os.Remove(w.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing state journal %s: %w", w.path, err)
	}
	return syncDir(filepath.Dir(w.path))
}

// ErrMismatch reports a journal written for another state (different
// lineage or serial); it is not replayed.
var ErrMismatch = errors.New("the state journal belongs to a different state")

// Replay applies the journal at path to s, which must be the state the
// journal was started for (same lineage and serial). It returns the number
// of records applied; a missing journal applies none. A torn last line (a
// write the crash interrupted, never acknowledged) is ignored.
func Replay(path string, s *state.State) (int, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("reading state journal %s: %w", path, err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	first, err := r.ReadBytes('\n')
	if err != nil {
		// Not even a complete header: nothing was ever committed.
		return 0, nil
	}
	var h header
	if err := json.Unmarshal(first, &h); err != nil || h.Journal != formatVersion {
		return 0, fmt.Errorf("reading state journal %s: not a rig state journal", path)
	}
	if h.Lineage != s.Lineage || h.Serial != s.Serial {
		return 0, fmt.Errorf("%w (journal: lineage %s serial %d; state: lineage %s serial %d)", ErrMismatch, h.Lineage, h.Serial, s.Lineage, s.Serial)
	}
	n := 0
	for {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, fmt.Errorf("reading state journal %s: %w", path, err)
		}
		var rec record
		if json.Unmarshal(line, &rec) != nil {
			return n, fmt.Errorf("reading state journal %s: record %d is corrupt", path, n+1)
		}
		if err := apply(s, rec); err != nil {
			return n, fmt.Errorf("reading state journal %s: record %d: %w", path, n+1, err)
		}
		n++
	}
}

func apply(s *state.State, rec record) error {
	for _, r := range rec.Removed {
		addr, err := addrs.ParseAbsResourceInstanceStr(r.Addr)
		if err != nil {
			return err
		}
		s.SetObject(addrs.ObjectAddr{Instance: addr, Deposed: addrs.DeposedKey(r.Deposed)}, nil, addrs.AbsProviderConfig{})
	}
	if rec.Set != nil {
		part, err := statefile.Parse(rec.Set)
		if err != nil {
			return err
		}
		for _, oa := range part.Objects() {
			pc := part.Resource(oa.Instance.ContainingResource()).ProviderConfig
			s.SetObject(oa, part.Object(oa), pc)
		}
		if rec.Outputs {
			s.Outputs = part.Outputs
		}
	} else if rec.Outputs {
		s.Outputs = map[string]state.OutputValue{}
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}
