//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package local

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rig-iac/rig/internal/backend"
)

// TestFileModes checks the modes of the state file, its backup and the
// journal under a umask that lets everyone read: 0600 for new files, an
// existing file's mode less its group and other bits.
func TestFileModes(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	tests := []struct {
		name  string
		prior fs.FileMode // of each file before; 0 for none
		want  fs.FileMode
	}{
		{name: "new files", want: 0o600},
		{name: "wider files narrowed", prior: 0o666, want: 0o600},
		{name: "group-readable files narrowed", prior: 0o640, want: 0o600},
		{name: "stricter files kept", prior: 0o400, want: 0o400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			statePath := filepath.Join(dir, "terraform.tfstate")
			paths := []string{statePath, statePath + ".backup", statePath + ".journal"}
			if tt.prior != 0 {
				for _, p := range paths {
					if err := os.WriteFile(p, []byte("old"), tt.prior); err != nil {
						t.Fatal(err)
					}
				}
			}
			s := openStore(t, New(dir, Options{}), backend.DefaultWorkspace)
			if err := s.Write(context.Background(), []byte("new")); err != nil {
				t.Fatal(err)
			}
			if tt.prior == 0 {
				// A first write has nothing to back up: write again in a
				// new run, as the next apply would.
				s = openStore(t, New(dir, Options{}), backend.DefaultWorkspace)
				if err := s.Write(context.Background(), []byte("newer")); err != nil {
					t.Fatal(err)
				}
			}
			// Without write permission (and not as root) Begin fails, as it
			// must, and the journal keeps its mode.
			if err := s.Journal().Begin(context.Background(), "l", 1); err != nil && (tt.prior == 0 || tt.prior&0o200 != 0) {
				t.Fatal(err)
			}
			for _, p := range paths {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if got := fi.Mode().Perm(); got != tt.want {
					t.Errorf("%s: mode %#o, want %#o", filepath.Base(p), got, tt.want)
				}
			}
		})
	}
}
