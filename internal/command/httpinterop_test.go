package command

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/http/stateserver"
)

// TestHTTPBackendRecordAsTerraform: for the same backend "http" block and
// -backend-config values, rig init writes the record terraform init
// writes, byte for byte; each tool then works in the other's directory,
// on the state the other wrote.
func TestHTTPBackendRecordAsTerraform(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{Username: "ci", Password: httpPassword})
	block := strings.Replace(httpBlock(srv, "/state/tf"), "username", "retry_max      = 3\n    skip_cert_verification = false\n    username", 1)
	config := block + "\nresource \"terraform_data\" \"a\" {\n  input = 1\n}\n"
	tfDir := workDir(t, map[string]string{"main.tf": config})
	rigDir := workDir(t, map[string]string{"main.tf": config})
	terraform := terraformIn(t, tfDir)
	if r := terraform("init", "-no-color", "-backend-config=password="+httpPassword); r.code != 0 {
		t.Fatalf("terraform init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustRig(t, rigDir, "init", "-no-color", "-input=false", "-backend-config=password="+httpPassword)
	tfRecord := readFile(t, tfDir, ".terraform/terraform.tfstate")
	// Each tool records its own version.
	sameVersion := func(rec string) string {
		return regexp.MustCompile(`"terraform_version": "[^"]*"`).ReplaceAllString(rec, `"terraform_version": "X"`)
	}
	if got := readFile(t, rigDir, ".terraform/terraform.tfstate"); sameVersion(got) != sameVersion(tfRecord) {
		t.Errorf("rig's record:\n%s\nTerraform's:\n%s", got, tfRecord)
	}

	// rig applies in Terraform's directory, without rig init.
	mustRig(t, tfDir, "apply", "-auto-approve", "-no-color", "-input=false")
	// Terraform plans no change on the state rig wrote, in rig's directory.
	terraformRig := terraformIn(t, rigDir)
	if r := terraformRig("plan", "-detailed-exitcode", "-no-color"); r.code != 0 {
		t.Fatalf("terraform plan in rig's directory: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	var rec backendRecordJSON
	if err := json.Unmarshal([]byte(tfRecord), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Backend.Config["retry_max"] != 3.0 {
		t.Errorf("retry_max recorded as %v", rec.Backend.Config["retry_max"])
	}
}

// TestHTTPLockHeldByTerraform: while terraform console holds the lock on
// the server, rig apply reports Terraform's lock; once Terraform exits,
// rig applies.
func TestHTTPLockHeldByTerraform(t *testing.T) {
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform not on PATH")
	}
	srv := stateserver.Start(t, stateserver.Options{})
	dir := workDir(t, map[string]string{"main.tf": httpBlock(srv, "/state/c") + simpleConfig})
	terraform := terraformIn(t, dir)
	if r := terraform("init", "-no-color"); r.code != 0 {
		t.Fatalf("terraform init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	cmd := exec.Command(tf, "console", "-no-color")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_CLI_CONFIG_FILE=/dev/null")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var held backend.LockInfo
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if info := srv.LockInfo("/state/c"); info != nil {
			if err := json.Unmarshal(info, &held); err != nil {
				t.Fatal(err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("terraform console took no lock:\n%s", out.String())
		}
	}
	r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if r.code != 1 || !strings.Contains(r.stderr, "ID:        "+held.ID) || !strings.Contains(r.stderr, "Version:   1.11") {
		t.Errorf("apply while Terraform holds the lock: exit %d\n%s", r.code, r.stderr)
	}
	_, _ = io.WriteString(stdin, "1+1\n")
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("terraform console: %v\n%s", err, out.String())
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if srv.LockInfo("/state/c") != nil || srv.State("/state/c") == nil {
		t.Error("after Terraform released its lock, rig did not apply and unlock")
	}
}
