package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// TestApplyWhileLockedFails checks that an apply on a state another
// process is applying to fails at once, saying who holds the lock, and
// leaves the state alone; with -lock-timeout it waits for the lock.
func TestApplyWhileLockedFails(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	if r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color"); r.code != 0 {
		t.Fatalf("apply: %s", r.stderr)
	}
	_, before := readStateFile(t, dir)

	_, unlock := holdLocalLock(t, dir)

	r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color", "-var=value=changed")
	if r.code != 1 || !strings.Contains(r.stderr, "Error acquiring the state lock") || !strings.Contains(r.stderr, "alice@build-host") || !strings.Contains(r.stderr, "OperationTypeApply") {
		t.Fatalf("locked apply: exit %d, want 1 naming the holder:\n%s", r.code, r.stderr)
	}
	_, after := readStateFile(t, dir)
	if !bytes.Equal(before, after) {
		t.Fatal("locked apply changed the state")
	}

	// With -lock-timeout, the apply waits until the holder releases the lock.
	go func() {
		time.Sleep(300 * time.Millisecond)
		unlock()
	}()
	r = rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color", "-var=value=changed", "-lock-timeout=30s")
	if r.code != 0 || !strings.Contains(r.stdout, "Apply complete!") {
		t.Fatalf("apply with -lock-timeout: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestConcurrentApplyProcesses runs two rig processes applying to one
// state at the same time: exactly one proceeds at a time, the other
// reports the lock, and the state is never corrupted.
func TestConcurrentApplyProcesses(t *testing.T) {
	bin := buildRig(t)
	// Enough instances that an apply takes a while.
	dir := workDir(t, map[string]string{"main.tf": `
variable "v" { default = "x" }
resource "terraform_data" "r" {
  count = 1500
  input = "${var.v}-${count.index}"
}
`})
	for round := range 3 {
		var wg sync.WaitGroup
		results := make([]result, 2)
		for i := range 2 {
			wg.Go(func() {
				r, err := commandtest.Exec(exec.Command(bin, "-chdir="+dir, "apply", "-auto-approve", "-input=false", "-no-color", "-var=v=round"+string(rune('0'+round))+string(rune('a'+i))))
				if err != nil {
					t.Errorf("running rig: %v", err)
				}
				results[i] = result{code: r.Code, stdout: r.Stdout, stderr: r.Stderr}
			})
		}
		wg.Wait()
		succeeded := 0
		for _, r := range results {
			switch {
			case r.code == 0:
				succeeded++
			case r.code == 1 && strings.Contains(r.stderr, "Error acquiring the state lock"):
			default:
				t.Fatalf("round %d: unexpected result: exit %d\n%s", round, r.code, r.stderr)
			}
		}
		if succeeded == 0 {
			t.Fatalf("round %d: neither apply proceeded", round)
		}
		sf, _ := readStateFile(t, dir)
		if got := instanceCount(sf); got != 1500 {
			t.Fatalf("round %d: state has %d instances, want 1500", round, got)
		}
		if _, err := os.Stat(filepath.Join(dir, ".terraform.tfstate.lock.info")); err == nil {
			t.Fatalf("round %d: lock left behind", round)
		}
	}
}

// force-unlock never breaks a lock a running process holds: it names the
// holder, refuses a wrong lock ID, and says when nothing is locked.
func TestForceUnlock(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	if r := rig(t, dir, "apply", "-auto-approve", "-input=false", "-no-color"); r.code != 0 {
		t.Fatalf("apply: %s", r.stderr)
	}
	if r := rig(t, dir, "force-unlock", "-no-color", "some-id"); r.code != 1 || !strings.Contains(r.stderr, "The state is not locked") {
		t.Fatalf("force-unlock of an unlocked state: exit %d\n%s", r.code, r.stderr)
	}
	id, unlock := holdLocalLock(t, dir)
	defer unlock()
	if r := rig(t, dir, "force-unlock", "-no-color", "wrong-id"); r.code != 1 || !strings.Contains(r.stderr, "does not match") {
		t.Fatalf("force-unlock with a wrong ID: exit %d\n%s", r.code, r.stderr)
	}
	r := rig(t, dir, "force-unlock", "-no-color", id)
	if r.code != 1 || !strings.Contains(r.stderr, "alice@build-host (OperationTypeApply)") {
		t.Fatalf("force-unlock of a held lock: exit %d\n%s", r.code, r.stderr)
	}
	// The holder still holds it.
	if r := rig(t, dir, "plan", "-no-color", "-input=false"); r.code != 1 || !strings.Contains(r.stderr, "Error acquiring the state lock") {
		t.Fatalf("plan after force-unlock: exit %d, the lock was broken\n%s", r.code, r.stderr)
	}
}
