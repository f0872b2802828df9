package command

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/provisioner/sshtest"
)

// TestRemoteExecApply: file and remote-exec provisioners of a
// terraform_data run over SSH against a server on loopback, with the
// resource's connection block (self and count.index in it) and a
// provisioner's own overriding its host key; the output is printed line by
// line after the resource's prefix, and a failing command is a "remote-exec
// provisioner error" with its exit status, the object tainted.
func TestRemoteExecApply(t *testing.T) {
	// The banner names whether an SSH agent is offered; none is here.
	t.Setenv("SSH_AUTH_SOCK", "")
	s := sshtest.Start(t, sshtest.Options{User: "deploy", Password: "s3cret"})
	dir := workDir(t, map[string]string{"main.tf": fmt.Sprintf(`
resource "terraform_data" "x" {
  count = 1
  input = { port = %d, dir = %q }
  connection {
    host        = "127.0.0.1"
    port        = self.input.port
    user        = "deploy"
    password    = "s3cret"
    host_key    = "not a key"
    timeout     = "10s"
    script_path = "${self.input.dir}/run_${count.index}.sh"
  }
  provisioner "file" {
    content     = "index ${count.index}\n"
    destination = "${self.input.dir}/uploaded.txt"
    connection {
      host     = "127.0.0.1"
      host_key = %q
    }
  }
  provisioner "remote-exec" {
    inline = ["cat uploaded.txt", "echo to-stderr >&2 && sleep 0.2", "echo $((6 * 7))"]
    connection {
      host     = "127.0.0.1"
      host_key = null
    }
  }
}

resource "terraform_data" "bad" {
  depends_on = [terraform_data.x]
  connection {
    host        = "127.0.0.1"
    port        = %d
    user        = "deploy"
    password    = "s3cret"
    script_path = "%s/bad.sh"
  }
  provisioner "remote-exec" {
    inline = ["echo failing", "exit 4"]
  }
}
`, s.Port, s.Dir, s.HostKey, s.Port, s.Dir)})
	r := rig(t, dir, "apply", "-auto-approve", "-no-color")
	if r.code != 1 {
		t.Fatalf("apply: %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(s.Dir, "uploaded.txt")); err != nil || string(b) != "index 0\n" {
		t.Errorf("uploaded.txt: %q, %v", b, err)
	}
	checkLines(t, "provisioner lines", linesWith(r.stdout, "terraform_data.x[0]"), []string{
		"terraform_data.x[0]: Creating...",
		"terraform_data.x[0]: Provisioning with 'file'...",
		"terraform_data.x[0]: Provisioning with 'remote-exec'...",
		"terraform_data.x[0] (remote-exec): Connecting to remote host via SSH...",
		"terraform_data.x[0] (remote-exec):   Host: 127.0.0.1",
		"terraform_data.x[0] (remote-exec):   User: deploy",
		"terraform_data.x[0] (remote-exec):   Password: true",
		"terraform_data.x[0] (remote-exec):   Private key: false",
		"terraform_data.x[0] (remote-exec):   Certificate: false",
		"terraform_data.x[0] (remote-exec):   SSH Agent: false",
		"terraform_data.x[0] (remote-exec):   Checking Host Key: false",
		"terraform_data.x[0] (remote-exec):   Target Platform: unix",
		"terraform_data.x[0] (remote-exec): Connected!",
		"terraform_data.x[0] (remote-exec): index 0",
		"terraform_data.x[0] (remote-exec): to-stderr",
		"terraform_data.x[0] (remote-exec): 42",
		"terraform_data.x[0]: Creation complete after Ns [id=" + idIn(t, r.stdout) + "]",
	})
	if _, err := os.Stat(filepath.Join(s.Dir, "run_0.sh")); err != nil {
		t.Errorf("script_path from the resource's connection block was not used: %v", err)
	}
	checkContains(t, "stderr", r.stderr, "Error: remote-exec provisioner error", "with terraform_data.bad,", fmt.Sprintf(`"%s/bad.sh" exit status: 4`, s.Dir))
	if !strings.Contains(r.stdout, "terraform_data.bad (remote-exec): failing") {
		t.Errorf("the failing command's output is missing:\n%s", r.stdout)
	}
	sf, _ := readStateFile(t, dir)
	for _, res := range sf.Resources {
		if res.Name == "bad" && res.Instances[0].Status != "tainted" {
			t.Errorf("bad is %q, want tainted", res.Instances[0].Status)
		}
	}
}

// TestRemoteExecTimeout: a host that refuses connections is tried until
// the connection's timeout, then the provisioner fails saying why; validate
// reports a file provisioner without source or content.
func TestRemoteExecTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	dir := workDir(t, map[string]string{"main.tf": fmt.Sprintf(`
resource "terraform_data" "x" {
  connection {
    host    = "127.0.0.1"
    port    = %d
    timeout = "1s"
  }
  provisioner "remote-exec" {
    inline = ["true"]
  }
}
`, port)})
	r := rig(t, dir, "apply", "-auto-approve", "-no-color")
	if r.code != 1 {
		t.Fatalf("apply: %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, "stderr", r.stderr, "Error: remote-exec provisioner error", fmt.Sprintf("timeout - last error: dial tcp 127.0.0.1:%d:", port), "connection refused")

	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(`
resource "terraform_data" "x" {
  provisioner "file" {
    destination = "/tmp/x"
  }
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	v := rig(t, dir, "validate", "-no-color")
	if v.code != 1 || !strings.Contains(v.stderr, "Error: Must provide one of 'source' or 'content'") {
		t.Errorf("validate: %d\n%s%s", v.code, v.stdout, v.stderr)
	}
}
