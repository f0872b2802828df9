//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows

package local

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/backendtest"
)

// helperEnv makes the test binary a helper process that takes a lock on
// the state in a directory, prints "locked", and waits to be killed:
// "flock:DIR" locks as rig does, "fcntl:DIR" as Terraform does
// (terraformLock); "fcntl-try:DIR" tries Terraform's lock once, prints
// "locked" or "busy" and exits.
const helperEnv = "RIG_LOCAL_LOCK_HELPER"

func TestMain(m *testing.M) {
	backendtest.ServeLockHelper(helperEnv, runHelper)
	os.Exit(m.Run())
}

func runHelper(spec string) error {
	mode, dir, _ := strings.Cut(spec, ":")
	if mode == "fcntl-try" {
		f, err := os.OpenFile(filepath.Join(dir, "terraform.tfstate"), os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			return err
		}
		switch err := terraformLock(f); {
		case err == nil:
			fmt.Println("locked")
		case errors.Is(err, errLockHeld):
			fmt.Println("busy")
		default:
			return err
		}
		os.Exit(0)
	}
	info := backend.NewLockInfo("OperationTypeApply")
	info.Info = "helper " + mode
	switch mode {
	case "flock":
		s, err := New(dir, Options{}).Store(context.Background(), backend.DefaultWorkspace)
		if err != nil {
			return err
		}
		if _, err := s.Lock(context.Background(), info); err != nil {
			return err
		}
	case "fcntl": // what Terraform and OpenTofu do
		f, err := os.OpenFile(filepath.Join(dir, "terraform.tfstate"), os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			return err
		}
		if err := terraformLock(f); err != nil {
			return err
		}
		info.Path = "terraform.tfstate"
		data, _ := json.Marshal(info)
		if err := os.WriteFile(filepath.Join(dir, ".terraform.tfstate.lock.info"), data, 0o600); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown mode %q", mode)
	}
	return nil
}

// startHelper runs a helper process holding a lock on dir's state and
// returns a function that kills it and waits for it to exit.
func startHelper(t *testing.T, mode, dir string) (kill func()) {
	t.Helper()
	return backendtest.StartLockHelper(t, helperEnv, mode+":"+dir)
}

func lockErr(t *testing.T, err error) *backend.LockError {
	t.Helper()
	var le *backend.LockError
	if !errors.As(err, &le) {
		t.Fatalf("err = %v, want a *LockError", err)
	}
	if !errors.Is(err, backend.ErrLocked) {
		t.Errorf("err = %v, want errors.Is ErrLocked", err)
	}
	return le
}

func TestLockInfoFile(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, New(dir, Options{}), backend.DefaultWorkspace)
	info := backend.NewLockInfo("OperationTypeApply")
	id, err := s.Lock(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	infoPath := filepath.Join(dir, ".terraform.tfstate.lock.info")
	data, err := os.ReadFile(infoPath)
	if err != nil {
		t.Fatal(err)
	}
	info.Path = filepath.Join(dir, "terraform.tfstate")
	want, _ := json.Marshal(info)
	if string(data) != string(want) {
		t.Errorf("lock info file = %s, want %s", data, want)
	}
	if fi, _ := os.Stat(infoPath); fi.Mode().Perm() != 0o600 {
		t.Errorf("lock info mode %v, want 0600", fi.Mode().Perm())
	}
	if err := s.Unlock(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(infoPath); !os.IsNotExist(err) {
		t.Errorf("lock info file still there after Unlock: %v", err)
	}
}

// TestLockAcrossBackends: two backends over one directory, as two rig
// processes would open it.
func TestLockAcrossBackends(t *testing.T) {
	dir := t.TempDir()
	s1 := openStore(t, New(dir, Options{}), backend.DefaultWorkspace)
	s2 := openStore(t, New(dir, Options{}), backend.DefaultWorkspace)
	info := backend.NewLockInfo("OperationTypeApply")
	id, err := s1.Lock(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s2.Lock(context.Background(), backend.NewLockInfo("OperationTypePlan"))
	if le := lockErr(t, err); le.Info == nil || le.Info.ID != id || le.Info.Created.IsZero() {
		t.Errorf("LockError.Info = %+v, want the holder's", le.Info)
	}
	if err := s1.Unlock(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Lock(context.Background(), backend.NewLockInfo("OperationTypePlan")); err != nil {
		t.Fatalf("Lock after Unlock: %v", err)
	}
}

// TestLockOfKilledProcess: the OS releases the lock of a process that
// dies, and the info file it leaves behind is not a lock.
func TestLockOfKilledProcess(t *testing.T) {
	dir := t.TempDir()
	kill := startHelper(t, "flock", dir)
	s := openStore(t, New(dir, Options{}), backend.DefaultWorkspace)

	_, err := s.Lock(context.Background(), backend.NewLockInfo("OperationTypePlan"))
	le := lockErr(t, err)
	if le.Info == nil || le.Info.Info != "helper flock" || le.Info.Operation != "OperationTypeApply" {
		t.Fatalf("LockError.Info = %+v, want the helper's", le.Info)
	}
	if msg := le.Error(); !strings.Contains(msg, "ID:        "+le.Info.ID) || !strings.Contains(msg, "Who:       "+le.Info.Who) {
		t.Errorf("LockError message lacks the holder's details:\n%s", msg)
	}

	kill()
	if _, err := os.Stat(filepath.Join(dir, ".terraform.tfstate.lock.info")); err != nil {
		t.Fatalf("the dead helper's info file should remain: %v", err)
	}
	id, err := s.Lock(context.Background(), backend.NewLockInfo("OperationTypePlan"))
	if err != nil {
		t.Fatalf("Lock after the holder died: %v", err)
	}
	if err := s.Unlock(context.Background(), id); err != nil {
		t.Fatal(err)
	}
}

// TestLockWaitsForProcess: LockWithTimeout succeeds once a holder in
// another process goes away.
func TestLockWaitsForProcess(t *testing.T) {
	dir := t.TempDir()
	kill := startHelper(t, "flock", dir)
	time.AfterFunc(300*time.Millisecond, kill)
	s := openStore(t, New(dir, Options{}), backend.DefaultWorkspace)
	id, err := backend.LockWithTimeout(context.Background(), s, backend.NewLockInfo("OperationTypeApply"), 20*time.Second)
	if err != nil {
		t.Fatalf("LockWithTimeout: %v", err)
	}
	if err := s.Unlock(context.Background(), id); err != nil {
		t.Fatal(err)
	}
}

// TestLockSeesTerraformLock: a Terraform or OpenTofu process holding its
// lock on the state file (fcntl(2); LockFileEx on Windows) is reported,
// with the info it wrote.
func TestLockSeesTerraformLock(t *testing.T) {
	dir := t.TempDir()
	kill := startHelper(t, "fcntl", dir)
	s := openStore(t, New(dir, Options{}), backend.DefaultWorkspace)
	_, err := s.Lock(context.Background(), backend.NewLockInfo("OperationTypePlan"))
	le := lockErr(t, err)
	if le.Info == nil || le.Info.Info != "helper fcntl" || le.Info.Path != "terraform.tfstate" {
		t.Errorf("LockError.Info = %+v, want the Terraform holder's", le.Info)
	}
	if !strings.Contains(err.Error(), "Terraform or OpenTofu") {
		t.Errorf("error does not name the other program: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, ".terraform.tfstate.lock.info")); !strings.Contains(string(got), "helper fcntl") {
		t.Errorf("Lock overwrote the holder's info file: %s", got)
	}
	kill()
	id, err := s.Lock(context.Background(), backend.NewLockInfo("OperationTypePlan"))
	if err != nil {
		t.Fatalf("Lock after Terraform exited: %v", err)
	}
	if err := s.Unlock(context.Background(), id); err != nil {
		t.Fatal(err)
	}
}

// TestLockUnlinkRace: a locker that opened the info file just before the
// holder removed it (in Unlock) and a third locker created a new one must
// not believe it holds the lock on the orphaned file.
func TestLockUnlinkRace(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b := New(dir, Options{})
	holder, late, third := openStore(t, b, "default"), openStore(t, b, "default"), openStore(t, b, "default")
	holderID, err := holder.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	if err != nil {
		t.Fatal(err)
	}
	var thirdID string
	var once sync.Once
	testHookLockOpened = func() {
		// Runs inside late.Lock, after it opened the holder's info file.
		once.Do(func() {
			testHookLockOpened = nil
			if err := holder.Unlock(ctx, holderID); err != nil {
				t.Error(err)
			}
			if thirdID, err = third.Lock(ctx, backend.NewLockInfo("OperationTypeImport")); err != nil {
				t.Error(err)
			}
		})
	}
	t.Cleanup(func() { testHookLockOpened = nil })

	_, err = late.Lock(ctx, backend.NewLockInfo("OperationTypePlan"))
	if le := lockErr(t, err); le.Info == nil || le.Info.ID != thirdID {
		t.Errorf("late locker got %+v, want the third store's lock %s", le.Info, thirdID)
	}
	if err := third.Unlock(ctx, thirdID); err != nil {
		t.Fatal(err)
	}
}
