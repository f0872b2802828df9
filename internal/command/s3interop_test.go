package command

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/backend"
)

// TestS3WithTerraform shares an s3 backend (both lock kinds) and a working
// directory with Terraform 1.11 (see testS3With).
func TestS3WithTerraform(t *testing.T) { testS3With(t, "terraform", "1.11", true) }

// TestS3WithOpenTofu is TestS3WithTerraform with OpenTofu 1.10, which
// accepts rig's record (Terraform's hash) by its config, and records its
// own hash of the block in its place, which rig accepts in turn.
func TestS3WithOpenTofu(t *testing.T) { testS3With(t, "tofu", "1.10", false) }

// testS3With shares an s3 backend (both lock kinds) and a working
// directory with another tool (skipped when it is not on PATH): the tool
// accepts the backend record rig wrote (keeping it as it is, with
// keepsRecord), rig the record as the tool leaves it, and each plans no
// changes on the other's state; a lock rig holds stops the tool, naming rig's lock, and a lock the
// tool holds (an apply waiting for its confirmation) stops rig, naming the
// tool's version.
func testS3With(t *testing.T, tool, version string, keepsRecord bool) {
	bin, err := exec.LookPath(tool)
	if err != nil {
		t.Skipf("%s not on PATH", tool)
	}
	p := newS3Target(t, true, true)
	dir := workDir(t, map[string]string{"main.tf": p.block() + simpleConfig})
	run := toolIn(t, bin, dir)
	mustRig(t, dir, "init", "-no-color")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	record := readFile(t, dir, ".terraform/terraform.tfstate")

	if r := run("init", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("%s init in rig's directory: exit %d\n%s%s", tool, r.code, r.stdout, r.stderr)
	}
	if got := readFile(t, dir, ".terraform/terraform.tfstate"); keepsRecord && !sameRecord(t, got, record) {
		t.Errorf("%s init rewrote rig's record:\n%s\nwas:\n%s", tool, got, record)
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("rig plan after %s init: exit %d\n%s%s", tool, r.code, r.stdout, r.stderr)
	}
	if r := run("plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("%s plan on rig's state: exit %d\n%s%s", tool, r.code, r.stdout, r.stderr)
	}

	// rig holds the lock: the tool reports rig's lock.
	held := p.store(t, "default")
	info := backend.NewLockInfo("OperationTypeApply")
	info.Who = "rig@build-host"
	id, err := held.Lock(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	r := run("plan", "-no-color", "-input=false")
	if r.code == 0 || !strings.Contains(r.stderr, "Error acquiring the state lock") || !strings.Contains(r.stderr, id) {
		t.Fatalf("%s plan while rig holds the lock: exit %d\n%s", tool, r.code, r.stderr)
	}
	if err := held.Unlock(context.Background(), id); err != nil {
		t.Fatal(err)
	}

	// The tool holds the lock while its apply waits for "yes".
	cmd := exec.Command(bin, "apply", "-no-color", "-var=value=from-"+tool)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	waitFor(t, stdout, "Enter a value")
	r = rig(t, dir, "plan", "-no-color", "-input=false")
	if r.code != 1 || !strings.Contains(r.stderr, "Error acquiring the state lock") || !strings.Contains(r.stderr, "Version:   "+version) {
		t.Fatalf("rig plan while %s holds the lock: exit %d\n%s", tool, r.code, r.stderr)
	}
	if _, err := io.WriteString(stdin, "yes\n"); err != nil {
		t.Fatal(err)
	}
	_ = stdin.Close()
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s apply: %v", tool, err)
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false", "-var=value=from-"+tool); r.code != 0 {
		t.Fatalf("rig plan on %s's state: exit %d\n%s%s", tool, r.code, r.stdout, r.stderr)
	}
}

// waitFor reads r until a line containing s appears, failing after a while.
func waitFor(t *testing.T, r io.Reader, s string) {
	t.Helper()
	found := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Split(bufio.ScanRunes)
		var seen strings.Builder
		for sc.Scan() {
			seen.WriteString(sc.Text())
			if strings.Contains(seen.String(), s) {
				found <- true
				return
			}
		}
		found <- false
	}()
	select {
	case ok := <-found:
		if !ok {
			t.Fatalf("the output ended without %q", s)
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("no %q within two minutes", s)
	}
}

// sameRecord reports whether two backend records are for the same
// backend type and block (the same hash).
func sameRecord(t *testing.T, a, b string) bool {
	t.Helper()
	// The parts of .terraform/terraform.tfstate compared.
	type record struct {
		Backend *struct {
			Type string `json:"type"`
			Hash uint64 `json:"hash"`
		} `json:"backend"`
	}
	var ra, rb record
	if err := jsonUnmarshal(a, &ra); err != nil {
		t.Fatal(err)
	}
	if err := jsonUnmarshal(b, &rb); err != nil {
		t.Fatal(err)
	}
	return ra.Backend != nil && rb.Backend != nil && ra.Backend.Type == rb.Backend.Type && ra.Backend.Hash == rb.Backend.Hash
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
