package local

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rig-iac/rig/internal/backend"
)

// journalFormat identifies the journal file format in its header line.
const journalFormat = 1

// journalHeader is the first line of a journal file: the snapshot it
// belongs to.
type journalHeader struct {
	Journal int    `json:"rig_state_journal"`
	Lineage string `json:"lineage"`
	Serial  uint64 `json:"serial"`
}

// Journal implements backend.Store: a file beside the state file
// (terraform.tfstate.journal), a header line and then one line per
// record, each fsync'd before Append returns.
func (s *Store) Journal() backend.Journal {
	if s.journal == nil {
		s.journal = &fileJournal{path: s.writePath() + ".journal"}
	}
	return s.journal
}

// fileJournal is a Store's journal file. It keeps the file open for
// appending between Begin and Discard.
type fileJournal struct {
	path string
	f    *os.File
	line []byte
}

// Path returns the journal file's path.
func (j *fileJournal) Path() string { return j.path }

func (j *fileJournal) Begin(ctx context.Context, lineage string, serial uint64) error {
	j.close()
	mode := privateMode(j.path)
	f, err := os.OpenFile(j.path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode)
	if err != nil {
		return fmt.Errorf("creating state journal %s: %w", j.path, err)
	}
	j.f = f
	// OpenFile applies the mode only to a new file, and through the umask.
	if err := f.Chmod(mode); err != nil {
		j.close()
		return fmt.Errorf("creating state journal %s: %w", j.path, err)
	}
	header, _ := json.Marshal(journalHeader{Journal: journalFormat, Lineage: lineage, Serial: serial})
	if err := j.writeLine(header); err != nil {
		j.close()
		return err
	}
	if err := syncDir(filepath.Dir(j.path)); err != nil {
		j.close()
		return fmt.Errorf("creating state journal %s: %w", j.path, err)
	}
	return nil
}

func (j *fileJournal) Append(ctx context.Context, record []byte) error {
	if j.f == nil {
		return fmt.Errorf("appending to state journal %s: not begun", j.path)
	}
	if bytes.IndexByte(record, '\n') >= 0 {
		return fmt.Errorf("appending to state journal %s: a record holds a newline", j.path)
	}
	return j.writeLine(record)
}

func (j *fileJournal) writeLine(line []byte) error {
	j.line = append(append(j.line[:0], line...), '\n')
	if _, err := j.f.Write(j.line); err != nil {
		return fmt.Errorf("writing state journal %s: %w", j.path, err)
	}
	if err := syncData(j.f); err != nil {
		return fmt.Errorf("syncing state journal %s: %w", j.path, err)
	}
	return nil
}

// Load reads the journal file. A last line without its newline is a write
// that a crash interrupted before Append returned; it is left out.
func (j *fileJournal) Load(ctx context.Context) (*backend.JournalContent, error) {
	f, err := os.Open(j.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading state journal %s: %w", j.path, err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	first, err := r.ReadBytes('\n')
	if err != nil {
		// Not even a complete header: Begin never returned.
		return nil, nil
	}
	var h journalHeader
	if err := json.Unmarshal(first, &h); err != nil || h.Journal != journalFormat {
		return nil, fmt.Errorf("reading state journal %s: not a rig state journal", j.path)
	}
	c := &backend.JournalContent{Lineage: h.Lineage, Serial: h.Serial}
	for {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			return c, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading state journal %s: %w", j.path, err)
		}
		c.Records = append(c.Records, line[:len(line)-1])
	}
}

func (j *fileJournal) Discard(ctx context.Context) error {
	j.close()
	if err := os.Remove(j.path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("removing state journal %s: %w", j.path, err)
	}
	if err := syncDir(filepath.Dir(j.path)); err != nil {
		return fmt.Errorf("removing state journal %s: %w", j.path, err)
	}
	return nil
}

func (j *fileJournal) close() {
	if j.f != nil {
		j.f.Close()
		j.f = nil
	}
}
