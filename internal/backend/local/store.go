package local

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rig-iac/rig/internal/backend"
)

var (
	_ backend.Store        = (*Store)(nil)
	_ backend.StreamWriter = (*Store)(nil)
)

// Store is one workspace's state file. A Store value is used by one
// goroutine at a time.
type Store struct {
	path       string // the state file
	outPath    string // where writes go when not path (-state-out); "" for path
	backupPath string // "" for no backup
	lockPath   string // the lock-info file beside the state file

	backedUp bool         // the backup has been taken (or there was nothing to back up)
	lock     heldLock     // the lock this Store holds, if any
	state    stateLock    // the lock on the state file itself, held with lock
	journal  *fileJournal // made by the first call of Journal
}

// Path returns the state file's path.
func (s *Store) Path() string { return s.path }

// Read implements backend.Store. A missing state file, or one that is empty
// or holds only white space (Terraform creates an empty one when it locks a
// new state), is no state: nil, nil, as in OpenTofu.
func (s *Store) Read(ctx context.Context) ([]byte, error) {
	data, err := os.ReadFile(s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading state %s: %w", s.path, err)
	case len(bytes.TrimSpace(data)) == 0:
		return nil, nil
	}
	return data, nil
}

// Write implements backend.Store. Before the first write of this Store
// value, an existing non-empty state file is copied (atomically and durably
// too) to the backup path, so that the backup is the state as it was
// before this run (see backingUp).
func (s *Store) Write(ctx context.Context, data []byte) error {
	_, err := s.WriteFrom(ctx, func(w io.Writer) (bool, error) {
		_, err := w.Write(data)
		return true, err
	})
	return err
}

// WriteFrom implements backend.StreamWriter: the snapshot encode writes
// goes straight to the new file, which replaces the old one only when
// encode keeps it.
func (s *Store) WriteFrom(ctx context.Context, encode func(io.Writer) (bool, error)) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("writing state %s: %w", s.path, err)
	}
	target := s.writePath()
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return false, fmt.Errorf("writing state %s: %w", target, err)
	}
	encode = s.backingUp(encode)
	if s.outPath != "" {
		// Another file than the one read, and so than the one locked.
		f, err := replaceFile(s.outPath, encode, nil)
		if err != nil {
			return false, fmt.Errorf("writing state %s: %w", s.outPath, err)
		}
		return f != nil, closeFile(f)
	}
	kept, err := s.writeState(encode)
	if err != nil {
		return false, fmt.Errorf("writing state %s: %w", s.path, err)
	}
	return kept, nil
}

// backingUp wraps encode so that, before the first snapshot this Store
// keeps replaces the state file, the file is copied to the backup path: a
// snapshot encode does not keep (nothing changed) leaves no backup, as
// OpenTofu and Terraform leave none.
func (s *Store) backingUp(encode func(io.Writer) (bool, error)) func(io.Writer) (bool, error) {
	if s.backedUp {
		return encode
	}
	return func(w io.Writer) (bool, error) {
		keep, err := encode(w)
		if err != nil || !keep {
			return keep, err
		}
		if err := s.backup(); err != nil {
			return false, fmt.Errorf("backup %s: %w", s.backupPath, err)
		}
		s.backedUp = true
		return true, nil
	}
}

// closeFile closes f unless it is nil.
func closeFile(f *os.File) error {
	if f == nil {
		return nil
	}
	return f.Close()
}

// writePath is the file the state is written to: the one it is read from,
// unless -state-out names another.
func (s *Store) writePath() string {
	if s.outPath != "" {
		return s.outPath
	}
	return s.path
}

func (s *Store) backup() error {
	if s.backupPath == "" {
		return nil
	}
	old, err := os.Open(s.writePath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer old.Close()
	// A file of white space only is no state to keep.
	if blank, err := onlySpace(old); err != nil || blank {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.backupPath), 0o755); err != nil {
		return err
	}
	f, err := replaceFile(s.backupPath, func(w io.Writer) (bool, error) {
		if _, err := old.Seek(0, io.SeekStart); err != nil {
			return false, err
		}
		_, err := io.Copy(w, old)
		return true, err
	}, nil)
	if err != nil {
		return err
	}
	return f.Close()
}

// onlySpace reports whether what r holds is white space only.
func onlySpace(r io.Reader) (bool, error) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if len(bytes.TrimSpace(buf[:n])) > 0 {
			return false, nil
		}
		if errors.Is(err, io.EOF) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// writeFileAtomic replaces path with data so that a reader or a crash sees
// the old or the new content, never a mixture (see replaceFile).
func writeFileAtomic(path string, data []byte) error {
	f, err := replaceFile(path, func(w io.Writer) (bool, error) {
		_, err := w.Write(data)
		return true, err
	}, nil)
	if err != nil {
		return err
	}
	return f.Close()
}

// replaceFile replaces path with what encode writes so that a reader or a
// crash sees the old or the new content, never a mixture: a temporary
// file in the same directory, written and fsync'd, renamed over path,
// then the directory fsync'd so that the rename itself is durable. The
// file's mode is privateMode's. It returns the new file still open;
// before the rename, lock (if not nil) is called on it, and its error
// stops the replacement. When encode does not keep what it wrote, path is
// left as it was and the file returned is nil.
func replaceFile(path string, encode func(io.Writer) (bool, error), lock func(*os.File) error) (_ *os.File, err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := privateMode(path)
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, err
	}
	tmp := f.Name()
	keep := false
	defer func() {
		if err != nil || !keep {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if keep, err = encode(f); err != nil || !keep {
		return nil, err
	}
	if err := f.Chmod(mode); err != nil {
		return nil, err
	}
	if err := f.Sync(); err != nil {
		return nil, err
	}
	if lock != nil {
		if err := lock(f); err != nil {
			return nil, err
		}
	}
	if err := renameFile(tmp, path); err != nil {
		return nil, err
	}
	return f, syncDir(dir)
}

// privateMode is the mode for writing the file at path, which holds state
// and so may hold secrets: 0600 (owner read and write, whatever the umask)
// for a new file; for an existing one its own mode without any group or
// other bits, so that a stricter mode is kept and a wider one is narrowed,
// never widened.
func privateMode(path string) fs.FileMode {
	if fi, err := os.Stat(path); err == nil {
		return fi.Mode().Perm() & 0o600
	}
	return 0o600
}

// WritesElsewhere implements backend.ElsewhereWriter: with -state-out,
// snapshots go to another file than the one read.
func (s *Store) WritesElsewhere() bool { return s.outPath != "" && s.outPath != s.path }
