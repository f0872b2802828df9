//go:build unix

package workdir

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

// TestErroredStateFileMode checks that errored.tfstate, written when the
// backend refuses the final state, is private to its owner, also when a
// previous run left one readable by everyone.
func TestErroredStateFileMode(t *testing.T) {
	commandtest.WithUmask(t, 0)
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
			dir := t.TempDir()
			path := filepath.Join(dir, erroredStatePath)
			if tc.prior != 0 {
				if err := os.WriteFile(path, []byte("old"), tc.prior); err != nil {
					t.Fatal(err)
				}
			}
			s := state.New()
			s.Lineage, s.Serial = "l", 1
			store, err := inmem.New().Store(context.Background(), backend.DefaultWorkspace)
			if err != nil {
				t.Fatal(err)
			}
			w := statemgr.NewWriter(store, s)
			ds := New(dir, Options{}).PersistFailed(s, w, errors.New("backend gone"), io.Discard)
			if len(ds) != 2 || ds[1].Summary != "Failed to persist state to backend" {
				t.Fatalf("diagnostics: %v", ds)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != tc.want {
				t.Errorf("errored.tfstate has mode %#o, want %#o", got, tc.want)
			}
		})
	}
}
