package local

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/backendtest"
)

func TestConformance(t *testing.T) {
	backendtest.Run(t, func(t *testing.T) backend.Backend { return New(t.TempDir(), Options{}) })
}

func openStore(t *testing.T, b *Backend, ws string) *Store {
	t.Helper()
	s, err := b.Store(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*Store)
}

// leftovers lists temporary files a write may have left in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestWriteAndBackup(t *testing.T) {
	tests := []struct {
		name       string
		opts       Options
		prior      *string  // the state file before the run; nil for none
		writes     []string // this run's writes, by one Store
		backupAt   string   // relative path of the backup, "" for the default
		wantBackup *string  // nil: no backup file
	}{
		{name: "no prior state makes no backup", writes: []string{"a", "b"}},
		{name: "prior state is backed up once", prior: ptr("old"), writes: []string{"a", "b", "c"}, wantBackup: ptr("old")},
		{name: "empty prior file is no state", prior: ptr(""), writes: []string{"a"}},
		{name: "white space prior file is no state", prior: ptr(" \n\t\n"), writes: []string{"a"}},
		{name: "white space before the content is kept", prior: ptr(strings.Repeat(" \n", 40<<10) + "{}"), writes: []string{"a"},
			wantBackup: ptr(strings.Repeat(" \n", 40<<10) + "{}")},
		{name: "backup disabled", opts: Options{BackupPath: "-"}, prior: ptr("old"), writes: []string{"a"}},
		{name: "backup elsewhere", opts: Options{BackupPath: "backups/state.bak"}, prior: ptr("old"), writes: []string{"a"},
			backupAt: "backups/state.bak", wantBackup: ptr("old")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			statePath := filepath.Join(dir, "terraform.tfstate")
			if tt.prior != nil {
				if err := os.WriteFile(statePath, []byte(*tt.prior), 0o640); err != nil {
					t.Fatal(err)
				}
			}
			s := openStore(t, New(dir, tt.opts), backend.DefaultWorkspace)
			for _, w := range tt.writes {
				if err := s.Write(context.Background(), []byte(w)); err != nil {
					t.Fatalf("Write(%q): %v", w, err)
				}
				if got, _ := os.ReadFile(statePath); string(got) != w {
					t.Fatalf("state file = %q, want %q", got, w)
				}
			}
			backupPath := filepath.Join(dir, "terraform.tfstate.backup")
			if tt.backupAt != "" {
				backupPath = filepath.Join(dir, tt.backupAt)
			}
			got, err := os.ReadFile(backupPath)
			switch {
			case tt.wantBackup == nil && !os.IsNotExist(err):
				t.Errorf("backup %s exists (%q, %v), want none", backupPath, got, err)
			case tt.wantBackup != nil && string(got) != *tt.wantBackup:
				t.Errorf("backup = %q, %v; want %q", got, err, *tt.wantBackup)
			}
			if fi, err := os.Stat(statePath); err == nil && fi.Mode().Perm() != 0o600 {
				t.Errorf("state file mode %v, want 0600 (the prior file's 0640 narrowed)", fi.Mode().Perm())
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("temporary files left: %q", l)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestWriteFrom: a snapshot written as it is encoded replaces the state
// file only when the encoding succeeds and keeps it; otherwise the file
// is left as it was, with no temporary file behind.
func TestWriteFrom(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name      string
		keep      bool
		err       error
		want      string
		wantSaved bool
	}{
		{name: "kept", keep: true, want: "new", wantSaved: true},
		{name: "not kept", keep: false, want: "old"},
		{name: "failed", keep: true, err: boom, want: "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := openStore(t, New(dir, Options{}), backend.DefaultWorkspace)
			ctx := context.Background()
			if err := s.Write(ctx, []byte("old")); err != nil {
				t.Fatal(err)
			}
			saved, err := s.WriteFrom(ctx, func(w io.Writer) (bool, error) {
				if _, err := io.WriteString(w, "new"); err != nil {
					return false, err
				}
				return tt.keep, tt.err
			})
			if saved != tt.wantSaved || !errors.Is(err, tt.err) {
				t.Errorf("WriteFrom = %v, %v; want %v, %v", saved, err, tt.wantSaved, tt.err)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate")); string(got) != tt.want {
				t.Errorf("state file %q, want %q", got, tt.want)
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("temporary files left: %q", l)
			}
		})
	}
}

// TestBackupIsPreviousRun checks that each run's first write backs up the
// state the previous run left.
func TestBackupIsPreviousRun(t *testing.T) {
	dir := t.TempDir()
	b := New(dir, Options{})
	for run, writes := range [][]string{{"r1a", "r1b"}, {"r2a", "r2b"}, {"r3a"}} {
		s := openStore(t, b, backend.DefaultWorkspace)
		for _, w := range writes {
			if err := s.Write(context.Background(), []byte(w)); err != nil {
				t.Fatal(err)
			}
		}
		got, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate.backup"))
		want := map[int]string{0: "", 1: "r1b", 2: "r2b"}[run]
		if string(got) != want {
			t.Errorf("run %d: backup = %q, want %q", run+1, got, want)
		}
	}
}

func TestWriteFailure(t *testing.T) {
	dir := t.TempDir()
	// A directory where the state file should be: the rename must fail.
	if err := os.Mkdir(filepath.Join(dir, "terraform.tfstate"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, New(dir, Options{BackupPath: "-"}), backend.DefaultWorkspace)
	err := s.Write(context.Background(), []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "writing state "+filepath.Join(dir, "terraform.tfstate")) {
		t.Fatalf("Write = %v, want an error naming the state file", err)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("temporary files left after a failed write: %q", l)
	}
}

// TestReadersSeeWholeSnapshots reads while another Store rewrites the
// state: every read must be one complete snapshot.
func TestReadersSeeWholeSnapshots(t *testing.T) {
	dir := t.TempDir()
	b := New(dir, Options{})
	snaps := [][]byte{bytes.Repeat([]byte("a"), 1<<20), bytes.Repeat([]byte("b"), 3<<19)}
	w := openStore(t, b, backend.DefaultWorkspace)
	if err := w.Write(context.Background(), snaps[0]); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := openStore(t, b, backend.DefaultWorkspace)
			for {
				select {
				case <-done:
					return
				default:
				}
				got, err := r.Read(context.Background())
				if err != nil || (!bytes.Equal(got, snaps[0]) && !bytes.Equal(got, snaps[1])) {
					t.Errorf("read a torn snapshot (%d bytes, %v)", len(got), err)
					return
				}
			}
		}()
	}
	for i := range 40 {
		if err := w.Write(context.Background(), snaps[i%2]); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
}

func TestPaths(t *testing.T) {
	tests := []struct {
		name      string
		opts      Options
		workspace string
		wantState string // relative to the backend's directory
		wantLock  string
	}{
		{"default", Options{}, "default", "terraform.tfstate", ".terraform.tfstate.lock.info"},
		{"workspace", Options{}, "dev", "terraform.tfstate.d/dev/terraform.tfstate", "terraform.tfstate.d/dev/.terraform.tfstate.lock.info"},
		{"path setting", Options{Path: "states/prod.tfstate"}, "default", "states/prod.tfstate", "states/.prod.tfstate.lock.info"},
		{"path setting leaves workspaces", Options{Path: "prod.tfstate"}, "dev", "terraform.tfstate.d/dev/terraform.tfstate", "terraform.tfstate.d/dev/.terraform.tfstate.lock.info"},
		{"workspace_dir setting", Options{WorkspaceDir: "ws"}, "dev", "ws/dev/terraform.tfstate", "ws/dev/.terraform.tfstate.lock.info"},
		{"-state overrides all", Options{Path: "p", StatePath: "other.tfstate"}, "dev", "other.tfstate", ".other.tfstate.lock.info"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := openStore(t, New(dir, tt.opts), tt.workspace)
			if want := filepath.Join(dir, tt.wantState); s.Path() != want {
				t.Errorf("Path() = %s, want %s", s.Path(), want)
			}
			if err := s.Write(context.Background(), []byte("x")); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, tt.wantState)); err != nil {
				t.Errorf("state not written where expected: %v", err)
			}
			id, err := s.Lock(context.Background(), backend.NewLockInfo("OperationTypeApply"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, tt.wantLock)); err != nil {
				t.Errorf("lock info not where expected: %v", err)
			}
			if err := s.Unlock(context.Background(), id); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestWorkspaceDirectories(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b := New(dir, Options{})
	if err := openStore(t, b, "dev").Write(ctx, []byte("x")); err != nil {
		t.Fatal(err)
	}
	// A stray file and an oddly named directory are not workspaces.
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate.d", "stray"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "terraform.tfstate.d", "a b"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := b.Workspaces(ctx)
	if err != nil || !slices.Equal(got, []string{"default", "dev"}) {
		t.Fatalf("Workspaces = %q, %v; want [default dev]", got, err)
	}
	if err := b.DeleteWorkspace(ctx, "dev"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.d", "dev")); !os.IsNotExist(err) {
		t.Errorf("workspace directory still there: %v", err)
	}
}

// TestJournalFile: the journal is terraform.tfstate.journal, a record whose
// write a crash interrupted (no newline yet) is not loaded, and a file that
// is not a journal is an error rather than an empty journal.
func TestJournalFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, New(dir, Options{}), backend.DefaultWorkspace)
	j := s.Journal()
	if err := j.Begin(ctx, "lin", 2); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(ctx, []byte(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(ctx, []byte("two\nlines")); err == nil {
		t.Fatal("a record with a newline was accepted")
	}
	path := filepath.Join(dir, "terraform.tfstate.journal")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatalf("journal file: %v", err)
	}
	f.WriteString(`{"set":{"versi`)
	f.Close()
	c, err := openStore(t, New(dir, Options{}), backend.DefaultWorkspace).Journal().Load(ctx)
	if err != nil || c == nil || len(c.Records) != 1 || string(c.Records[0]) != `{"a":1}` {
		t.Fatalf("Load = %+v, %v; want the one complete record", c, err)
	}
	if err := os.WriteFile(path, []byte("not a journal\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Load(ctx); err == nil || !strings.Contains(err.Error(), "not a rig state journal") {
		t.Fatalf("Load of a foreign file = %v", err)
	}
}
