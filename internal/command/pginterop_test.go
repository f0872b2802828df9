package command

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/backend"
)

// TestPGTerraformInterop shares a pg backend with Terraform, when a
// terraform binary is on PATH: each reads the state the other wrote and
// plans no changes, and Terraform cannot lock a workspace rig holds.
func TestPGTerraformInterop(t *testing.T) {
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform not on PATH")
	}
	p := newPGTarget(t)
	config := p.block() + simpleConfig
	rigDir := workDir(t, map[string]string{"main.tf": config})
	tfDir := workDir(t, map[string]string{"main.tf": config})
	terraform := toolIn(t, tf, tfDir)

	mustRig(t, rigDir, "init", "-no-color")
	mustRig(t, rigDir, "apply", "-auto-approve", "-no-color", "-input=false")
	if r := terraform("init", "-no-color"); r.code != 0 {
		t.Fatalf("terraform init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := terraform("plan", "-detailed-exitcode", "-no-color"); r.code != 0 {
		t.Fatalf("terraform plan on rig's state: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := terraform("apply", "-auto-approve", "-no-color", "-var=value=from-terraform"); r.code != 0 {
		t.Fatalf("terraform apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, rigDir, "plan", "-detailed-exitcode", "-no-color", "-input=false", "-var=value=from-terraform"); r.code != 0 {
		t.Fatalf("rig plan on Terraform's state: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}

	held := p.store(t, "default")
	id, err := held.Lock(context.Background(), backend.NewLockInfo("OperationTypeApply"))
	if err != nil {
		t.Fatal(err)
	}
	if r := terraform("plan", "-no-color", "-var=value=from-terraform"); r.code == 0 || !strings.Contains(r.stderr, "Error acquiring the state lock") {
		t.Errorf("terraform plan while rig holds the lock: exit %d\n%s", r.code, r.stderr)
	}
	if err := held.Unlock(context.Background(), id); err != nil {
		t.Fatal(err)
	}
}
