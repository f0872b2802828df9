package local

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rig-iac/rig/internal/backend"
)

// With StateOutPath the state is read from one file and written to
// another (-state-out), whose previous content is the backup, named after
// it; the file read is left as it was. Both are written 0600.
func TestStateOutPath(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("in.tfstate", "in")
	write("out.tfstate", "old out")
	s := openStore(t, New(dir, Options{StatePath: "in.tfstate", StateOutPath: "out.tfstate"}), "default")
	got, err := s.Read(ctx)
	if err != nil || string(got) != "in" {
		t.Fatalf("Read = %q, %v; want the -state file", got, err)
	}
	id, err := s.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if err := s.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"in.tfstate": "in", "out.tfstate": "new", "out.tfstate.backup": "old out"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
	for _, name := range []string{"out.tfstate", "out.tfstate.backup"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", name, fi.Mode().Perm(), err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "in.tfstate.backup")); err == nil {
		t.Errorf("the file read was backed up")
	}
	if got := s.Journal().(*fileJournal).Path(); got != filepath.Join(dir, "out.tfstate.journal") {
		t.Errorf("journal at %s, want beside the file written", got)
	}

	// -backup names the backup; "-" turns it off.
	write("out.tfstate", "old out")
	s = openStore(t, New(dir, Options{StatePath: "in.tfstate", StateOutPath: "out.tfstate", BackupPath: "b/keep.tfstate"}), "default")
	if err := s.Write(ctx, []byte("newer")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "b", "keep.tfstate")); err != nil || string(b) != "old out" {
		t.Errorf("-backup file = %q, %v", b, err)
	}
}
