//go:build unix

package killtest

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/rig-iac/rig/internal/command/commandtest"
	"github.com/rig-iac/rig/internal/command/commandtest/cli"
)

// TestKilledApplyLosesNothing kills an apply with SIGKILL part-way and
// checks that every operation it reported complete is in the state the
// next run recovers from the journal (a file private to its owner, even
// under a umask that lets everyone read), and that planning again
// converges.
func TestKilledApplyLosesNothing(t *testing.T) {
	commandtest.WithUmask(t, 0)
	killedApply(t, "", func(t *testing.T, dir string, present bool) {
		fi, err := os.Stat(filepath.Join(dir, "terraform.tfstate.journal"))
		if present && err != nil {
			t.Fatalf("no journal after the kill: %v", err)
		}
		if present && fi.Mode().Perm() != 0o600 {
			t.Errorf("the journal has mode %#o, want 0600", fi.Mode().Perm())
		}
		if !present && !os.IsNotExist(err) {
			t.Fatalf("journal still there after folding: %v", err)
		}
	})
}

// TestPGKilledApplyLosesNothing is TestKilledApplyLosesNothing with the
// state in PostgreSQL, whose journal is a table.
func TestPGKilledApplyLosesNothing(t *testing.T) {
	p := commandtest.NewPGTarget(t)
	killedApply(t, p.Block(), func(t *testing.T, dir string, present bool) {
		c, err := p.Store(t, "default").Journal().Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := c != nil && len(c.Records) > 0; got != present {
			t.Fatalf("journal with records: %v, want %v", got, present)
		}
	})
}

// TestS3KilledApplyLosesNothing is TestKilledApplyLosesNothing with the
// state in S3, whose journal is one object per record. The bucket is not
// locked: a lock object would outlive the killed run (TestS3Lifecycle
// covers releasing one).
func TestS3KilledApplyLosesNothing(t *testing.T) {
	p := commandtest.NewS3Target(t, false, false)
	killedApply(t, p.Block(), func(t *testing.T, dir string, present bool) {
		c, err := p.Store(t, "default").Journal().Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := c != nil && len(c.Records) > 0; got != present {
			t.Fatalf("journal with records: %v, want %v", got, present)
		}
		if !present {
			for _, k := range p.Srv.Keys(t, "state") {
				if strings.Contains(k, ".tfjournal") {
					t.Errorf("journal object %s left after the fold", k)
				}
			}
		}
	})
}

// killedApply runs the killed-apply scenario with the terraform block
// (backendBlock: a backend, encryption, or "" for neither), checking the
// journal with journalPresent after the kill (present) and after the fold
// (not). It returns the working directory.
func killedApply(t *testing.T, backendBlock string, journalPresent func(t *testing.T, dir string, present bool)) string {
	bin := commandtest.BuildRig(t)
	dir := commandtest.WorkDir(t, map[string]string{"main.tf": backendBlock + `
resource "terraform_data" "r" {
  count = 4000
  input = "value-${count.index}"
}
`})
	if backendBlock != "" {
		cli.MustRun(t, dir, "init", "-no-color")
	}
	cmd := exec.Command(bin, "-chdir="+dir, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=4")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	complete := regexp.MustCompile(`^(terraform_data\.r\[\d+\]): Creation complete`)
	var done []string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if m := complete.FindStringSubmatch(sc.Text()); m != nil {
			done = append(done, m[1])
			if len(done) == 500 {
				_ = cmd.Process.Signal(syscall.SIGKILL)
				break
			}
		}
	}
	_, _ = io.Copy(io.Discard, stdout)
	_ = cmd.Wait()
	if len(done) < 500 {
		t.Fatalf("the apply finished before it could be killed (%d operations seen)", len(done))
	}
	journalPresent(t, dir, true)

	// Unlocked readers see the recovered objects without changing anything.
	r := cli.Run(t, dir, "state", "list")
	listed := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		listed[l] = true
	}
	for _, addr := range done {
		if !listed[addr] {
			t.Fatalf("%s was reported complete before the kill but is not in the recovered state", addr)
		}
	}
	// A plan without the lock reads the journal with the state (the
	// journal may be a running apply's) and neither folds nor removes it.
	before, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	r = cli.Run(t, dir, "plan", "-lock=false", "-no-color", "-input=false")
	if r.Code != 0 || !commandtest.ContainsText(r.Stderr+r.Stdout, "State journal read without the lock") {
		t.Fatalf("plan -lock=false after the kill: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	// It sees the journal's objects: only the others are to create.
	if n := strings.Count(r.Stdout, "will be created"); n > 4000-len(done) {
		t.Errorf("plan -lock=false creates %d objects, more than the %d not reported complete", n, 4000-len(done))
	}
	journalPresent(t, dir, true)
	if after, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate")); string(after) != string(before) {
		t.Error("plan -lock=false changed the state file")
	}
	// The next locked run folds the journal into the state file.
	r = cli.Run(t, dir, "plan", "-no-color", "-input=false")
	if r.Code != 0 || !strings.Contains(r.Stderr+r.Stdout, "Recovered operations from an interrupted run") {
		t.Fatalf("plan after the kill: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	journalPresent(t, dir, false)
	if r := cli.Run(t, dir, "apply", "-auto-approve", "-no-color", "-input=false"); r.Code != 0 {
		t.Fatalf("apply after recovery: %s", r.Stderr)
	}
	r = cli.Run(t, dir, "state", "list")
	if got := strings.Count(r.Stdout, "terraform_data.r["); got != 4000 {
		t.Fatalf("state has %d instances, want 4000", got)
	}
	if r := cli.Run(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.Code != 0 {
		t.Fatalf("plan did not converge: exit %d\n%s", r.Code, r.Stdout)
	}
	return dir
}

// TestKilledEncryptedApply: with state encryption, the journal is
// encrypted too: an apply killed part-way leaves a journal holding none
// of the values it recorded in the clear, and the next run recovers every
// operation reported complete from it.
func TestKilledEncryptedApply(t *testing.T) {
	dir := killedApply(t, `
terraform {
  encryption {
    key_provider "pbkdf2" "pass" {
      passphrase = "correct-horse-battery-staple"
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.pass
    }
    state {
      method = method.aes_gcm.main
    }
  }
}
`, func(t *testing.T, dir string, present bool) {
		journal, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate.journal"))
		switch {
		case present && (err != nil || len(journal) == 0):
			t.Fatalf("no journal after the kill: %v", err)
		case !present && !os.IsNotExist(err):
			t.Fatalf("journal still there after folding: %v", err)
		}
		for _, name := range []string{"terraform.tfstate.journal", "terraform.tfstate"} {
			data, _ := os.ReadFile(filepath.Join(dir, name))
			if strings.Contains(string(data), "value-") {
				t.Errorf("%s holds recorded values in the clear", name)
			}
		}
	})
	if data, _ := os.ReadFile(filepath.Join(dir, "terraform.tfstate")); strings.Contains(string(data), "value-") || !strings.Contains(string(data), "encrypted_data") {
		t.Error("the final state is not encrypted")
	}
}
