//go:build unix

package command

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/inmem"
	"github.com/rig-iac/rig/internal/command/commandtest"
	"github.com/rig-iac/rig/internal/state"
	"github.com/rig-iac/rig/internal/state/statemgr"
)

// withUmask runs the rest of the test with the process's umask set to
// mask, so that a file's mode on disk shows what rig asked for.
func withUmask(t *testing.T, mask int) { commandtest.WithUmask(t, mask) }

func wantMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Errorf("%s: %v", filepath.Base(path), err)
		return
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s has mode %#o, want %#o", filepath.Base(path), got, want)
	}
}

// TestStateAndPlanFileModes checks that the files that hold state (the
// state file, its backup, a saved plan) are private to their owner even
// under a umask that lets everyone read, that a wider mode of an existing
// file is narrowed, and that a stricter one is kept.
func TestStateAndPlanFileModes(t *testing.T) {
	withUmask(t, 0)
	dir := workdir(t, map[string]string{"main.tf": `
variable "v" {
  default = "one"
}
resource "terraform_data" "a" {
  input = var.v
}
`})
	statePath := filepath.Join(dir, "terraform.tfstate")
	backupPath := filepath.Join(dir, "terraform.tfstate.backup")

	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	wantMode(t, statePath, 0o600)
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-var=v=two")
	wantMode(t, statePath, 0o600)
	wantMode(t, backupPath, 0o600)

	mustRig(t, dir, "plan", "-no-color", "-var=v=three", "-out=tfplan")
	wantMode(t, filepath.Join(dir, "tfplan"), 0o600)

	// Wider modes left by an older version are narrowed.
	for _, p := range []string{statePath, backupPath, filepath.Join(dir, "tfplan")} {
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustRig(t, dir, "plan", "-no-color", "-var=v=three", "-out=tfplan")
	wantMode(t, filepath.Join(dir, "tfplan"), 0o600)
	mustRig(t, dir, "apply", "-no-color", "tfplan")
	wantMode(t, statePath, 0o600)
	wantMode(t, backupPath, 0o600)

	// A stricter mode is kept.
	for _, p := range []string{statePath, backupPath, filepath.Join(dir, "tfplan")} {
		if err := os.Chmod(p, 0o400); err != nil {
			t.Fatal(err)
		}
	}
	mustRig(t, dir, "plan", "-no-color", "-var=v=four", "-out=tfplan")
	wantMode(t, filepath.Join(dir, "tfplan"), 0o400)
	mustRig(t, dir, "apply", "-no-color", "tfplan")
	wantMode(t, statePath, 0o400)
	wantMode(t, backupPath, 0o400)
}

// TestErroredStateFileMode checks that errored.tfstate, written when the
// backend refuses the final state, is private to its owner, also when a
// previous run left one readable by everyone.
func TestErroredStateFileMode(t *testing.T) {
	withUmask(t, 0)
	for _, tc := range []struct {
		name  string
		prior fs.FileMode // 0 for no errored.tfstate before
		want  fs.FileMode
	}{
		{"new file", 0, 0o600},
		{"wider file narrowed", 0o644, 0o600},
		{"stricter file kept", 0o200, 0o200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if tc.prior != 0 {
				if err := os.WriteFile(erroredStatePath, []byte("old"), tc.prior); err != nil {
					t.Fatal(err)
				}
			}
			m := &Meta{Streams: Streams{Out: io.Discard, Err: io.Discard}}
			s := state.New()
			s.Lineage, s.Serial = "l", 1
			store, err := inmem.New().Store(context.Background(), backend.DefaultWorkspace)
			if err != nil {
				t.Fatal(err)
			}
			w := statemgr.NewWriter(store, s)
			ds := m.persistFailed(s, w, errors.New("backend gone"))
			if len(ds) != 2 || ds[1].Summary != "Failed to persist state to backend" {
				t.Fatalf("diagnostics: %v", ds)
			}
			wantMode(t, erroredStatePath, tc.want)
		})
	}
}
