//go:build unix

package command

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
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
	dir := workDir(t, map[string]string{"main.tf": `
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
