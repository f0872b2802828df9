package local

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/backend"
)

// tryTerraformLock runs a helper process that tries, once, the lock
// Terraform and OpenTofu take on dir's state file: "locked" or "busy".
func tryTerraformLock(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=fcntl-try:"+dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestStateFileLockedForTerraform: while rig holds the lock, the state
// file carries the fcntl lock Terraform and OpenTofu take, before and
// after rig replaces the file, so that neither runs beside rig; Unlock
// releases it, and a state file the lock created and nothing wrote is
// removed again.
func TestStateFileLockedForTerraform(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := New(dir, Options{}).Store(ctx, backend.DefaultWorkspace)
	if err != nil {
		t.Fatal(err)
	}
	statePath := filepath.Join(dir, "terraform.tfstate")

	// No state yet: the lock creates an empty file, which reads as none.
	id, err := s.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
	if err != nil {
		t.Fatal(err)
	}
	if got := tryTerraformLock(t, dir); got != "busy" {
		t.Errorf("Terraform's lock on a new state: %s, want busy", got)
	}
	if data, err := s.Read(ctx); err != nil || data != nil {
		t.Errorf("Read = %q, %v: want no state", data, err)
	}
	if err := s.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(statePath); !os.IsNotExist(err) {
		t.Errorf("the empty state file the lock created is still there (%v)", err)
	}

	// With writes: each new state file is locked before it takes the path.
	id, err = s.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	if err != nil {
		t.Fatal(err)
	}
	for i, data := range []string{`{"serial": 1}`, `{"serial": 2}`} {
		if err := s.Write(ctx, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got := tryTerraformLock(t, dir); got != "busy" {
			t.Errorf("Terraform's lock after write %d: %s, want busy", i+1, got)
		}
		// Reading the file in this process keeps the lock (an open file
		// description lock, unlike a process's record lock).
		if got, _ := s.Read(ctx); string(got) != data {
			t.Errorf("Read = %q, want %q", got, data)
		}
		if got := tryTerraformLock(t, dir); got != "busy" {
			t.Errorf("Terraform's lock after a read: %s, want busy", got)
		}
	}
	if err := s.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
	if got := tryTerraformLock(t, dir); got != "locked" {
		t.Errorf("Terraform's lock after Unlock: %s, want locked", got)
	}
	if got, _ := os.ReadFile(statePath); string(got) != `{"serial": 2}` {
		t.Errorf("state file %q after Unlock, want the last write", got)
	}
}

// TestTerraformSeesRigLock runs terraform plan while rig holds the lock:
// Terraform refuses, showing the lock information rig wrote.
func TestTerraformSeesRigLock(t *testing.T) {
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH")
	}
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(`resource "terraform_data" "a" {}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(dir, Options{}).Store(ctx, backend.DefaultWorkspace)
	if err != nil {
		t.Fatal(err)
	}
	info := backend.NewLockInfo("OperationTypeApply")
	info.Info = "rig apply in progress"
	id, err := s.Lock(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Unlock(ctx, id)
	cmd := exec.Command(tf, "plan", "-input=false", "-no-color", "-lock-timeout=0s")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_CLI_CONFIG_FILE=/dev/null")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("terraform plan ran beside rig's lock:\n%s", out)
	}
	text := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{"Error acquiring the state lock", "ID: " + id, "rig apply in progress"} {
		if !strings.Contains(text, want) {
			t.Errorf("terraform's output lacks %q:\n%s", want, out)
		}
	}
}

// TestUnlockKeepsStateWrittenWithoutLock: the empty state file a lock
// created is removed on Unlock only while it is still that file; a state
// another run wrote meanwhile without the lock stays.
func TestUnlockKeepsStateWrittenWithoutLock(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := New(dir, Options{}).Store(ctx, backend.DefaultWorkspace)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
	if err != nil {
		t.Fatal(err)
	}
	statePath := filepath.Join(dir, "terraform.tfstate")
	if err := writeFileAtomic(statePath, []byte(`{"serial": 9}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(statePath); err != nil || string(got) != `{"serial": 9}` {
		t.Errorf("state after Unlock: %q, %v; want the one written without the lock", got, err)
	}
}
