package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWaitingForTheLockIsSaid: while another run holds the state lock, a
// command waiting with -lock-timeout says so, as OpenTofu does, on its
// output and in its JSON stream; one that gets the lock at once says
// nothing of it.
func TestWaitingForTheLockIsSaid(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`})
	r := rig(t, dir, "plan", "-no-color", "-lock-timeout=30s")
	if r.code != 0 || strings.Contains(r.stdout, acquiringLockMessage) {
		t.Fatalf("plan without contention: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	_, unlock := holdLocalLock(t, dir)
	go func() {
		time.Sleep(3 * time.Second) // well past workdir.LockWaitNotice
		unlock()
	}()
	into := filepath.Join(t.TempDir(), "plan.json")
	r = rig(t, dir, "plan", "-no-color", "-lock-timeout=30s", "-json-into="+into)
	if r.code != 0 || !strings.HasPrefix(r.stdout, acquiringLockMessage+"\n") || !strings.Contains(r.stdout, "terraform_data.a will be created") {
		t.Fatalf("plan waiting for the lock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	stream, err := os.ReadFile(into)
	if err != nil || !strings.Contains(string(stream), `"@message":"`+acquiringLockMessage+`"`) || !strings.Contains(string(stream), `"type":"state_lock_acquire"`) {
		t.Fatalf("the JSON stream does not say it waited: %v\n%s", err, stream)
	}
}
