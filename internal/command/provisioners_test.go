package command

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rig-iac/rig/internal/command/commandtest"
)

// lines returns the lines of s that start with prefix.
// The time an operation took depends on the machine's load: linesWith
// writes it as Ns.
func linesWith(s, prefix string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, elapsed.ReplaceAllString(l, "${1}Ns"))
		}
	}
	return out
}

// elapsed matches the time in "Creation complete after 1m2s".
var elapsed = regexp.MustCompile(`( complete after )[0-9hms]+`)

func checkLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLocalExecOutput: local-exec's output is printed line by line after
// the resource's prefix, with the "Executing:" line OpenTofu prints (or
// its quiet form), in working_dir and with environment set.
func TestLocalExecOutput(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
resource "terraform_data" "x" {
  input = "hello"
  provisioner "local-exec" {
    command     = "echo ${self.input}; echo to-stderr >&2; echo $GREETING; basename $(pwd)"
    working_dir = "sub"
    environment = { GREETING = "hi there" }
  }
  provisioner "local-exec" {
    command = "printf 'one\n\n  two  \n'"
    quiet   = true
  }
  provisioner "local-exec" {
    command     = "echo \"$0\""
    interpreter = ["sh", "-c"]
  }
}
`, "sub/.keep": ""})
	r := rig(t, dir, "apply", "-auto-approve", "-no-color")
	if r.code != 0 {
		t.Fatalf("apply: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkLines(t, "provisioner lines", linesWith(r.stdout, "terraform_data.x"), []string{
		"terraform_data.x: Creating...",
		"terraform_data.x: Provisioning with 'local-exec'...",
		`terraform_data.x (local-exec): Executing: ["/bin/sh" "-c" "echo hello; echo to-stderr >&2; echo $GREETING; basename $(pwd)"]`,
		"terraform_data.x (local-exec): hello",
		"terraform_data.x (local-exec): to-stderr",
		"terraform_data.x (local-exec): hi there",
		"terraform_data.x (local-exec): sub",
		"terraform_data.x: Provisioning with 'local-exec'...",
		"terraform_data.x (local-exec): local-exec: Executing: Suppressed by quiet=true",
		"terraform_data.x (local-exec): one",
		"terraform_data.x (local-exec):   two",
		"terraform_data.x: Provisioning with 'local-exec'...",
		`terraform_data.x (local-exec): Executing: ["sh" "-c" "echo \"$0\""]`,
		"terraform_data.x (local-exec): sh",
		"terraform_data.x: Creation complete after Ns [id=" + idIn(t, r.stdout) + "]",
	})
}

// idIn returns the id in the "Creation complete" line of out.
func idIn(t *testing.T, out string) string {
	t.Helper()
	m := creationID.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no creation complete in\n%s", out)
	}
	return m[1]
}

// creationID matches the id of a "Creation complete" line.
var creationID = regexp.MustCompile(`Creation complete after [0-9hms]+ \[id=([^\]]*)\]`)

const failingLocalExec = `
resource "terraform_data" "bad" {
  input = "x"
  provisioner "local-exec" {
    command = "echo failing; exit 3"
  }
}
resource "terraform_data" "after" {
  input = terraform_data.bad.id
}
resource "terraform_data" "tolerant" {
  provisioner "local-exec" {
    command    = "exit 5"
    on_failure = continue
  }
  provisioner "local-exec" {
    command = "echo still here"
  }
}
`

// TestLocalExecFailure: a failing command is an error naming its exit
// status and output; the object is recorded tainted, what depends on it is
// not created, and the next plan replaces it (Terraform's too, reading
// the state rig wrote). With on_failure = continue the failure is ignored.
func TestLocalExecFailure(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": failingLocalExec})
	r := rig(t, dir, "apply", "-auto-approve", "-no-color")
	if r.code != 1 {
		t.Fatalf("apply: %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkContains(t, "stderr", r.stderr, "Error: local-exec provisioner error", "with terraform_data.bad,", "Error running command 'echo failing; exit 3': exit status 3. Output: failing")
	if strings.Contains(r.stderr, "exit 5") || !strings.Contains(r.stdout, "terraform_data.tolerant (local-exec): still here") {
		t.Errorf("on_failure = continue did not go on quietly:\n%s%s", r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "terraform_data.after: Creating") {
		t.Errorf("a dependent of the failed object started:\n%s", r.stdout)
	}
	sf, _ := readStateFile(t, dir)
	statuses := map[string]string{}
	for _, res := range sf.Resources {
		for _, inst := range res.Instances {
			statuses[res.Name] = inst.Status
		}
	}
	if statuses["bad"] != "tainted" || statuses["tolerant"] != "" {
		t.Errorf("statuses %v: want bad tainted, tolerant ready", statuses)
	}
	p := rig(t, dir, "plan", "-no-color")
	if !strings.Contains(p.stdout, "# terraform_data.bad is tainted, so it must be replaced") {
		t.Errorf("plan does not replace the tainted object:\n%s", p.stdout)
	}

	tf := terraformIn(t, dir)
	if r := tf("init", "-no-color"); r.code != 0 {
		t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
	}
	tp := tf("plan", "-no-color")
	if tp.code != 0 || !strings.Contains(tp.stdout, "# terraform_data.bad is tainted, so must be replaced") {
		t.Errorf("terraform plan (%d) does not replace the tainted object:\n%s%s", tp.code, tp.stdout, tp.stderr)
	}
}

// TestLocalExecJSON: with -json, provisioners report provision_start,
// provision_progress (one per line of output), provision_complete and
// provision_errored, as OpenTofu's machine-readable UI does.
func TestLocalExecJSON(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": failingLocalExec})
	r := rig(t, dir, "apply", "-auto-approve", "-json")
	if r.code != 1 {
		t.Fatalf("apply: %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m struct {
			Level   string `json:"@level"`
			Message string `json:"@message"`
			Type    string `json:"type"`
			Hook    struct {
				Resource    struct{ Addr string }
				Provisioner string `json:"provisioner"`
				Output      string `json:"output"`
			} `json:"hook"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if strings.HasPrefix(m.Type, "provision_") && m.Hook.Resource.Addr == "terraform_data.bad" {
			got = append(got, m.Level+" "+m.Type+" "+m.Hook.Provisioner+" "+m.Hook.Output+"| "+m.Message)
		}
	}
	checkLines(t, "provision messages", got, []string{
		"info provision_start local-exec | terraform_data.bad: Provisioning with 'local-exec'...",
		`info provision_progress local-exec Executing: ["/bin/sh" "-c" "echo failing; exit 3"]| terraform_data.bad: (local-exec): Executing: ["/bin/sh" "-c" "echo failing; exit 3"]`,
		"info provision_progress local-exec failing| terraform_data.bad: (local-exec): failing",
		"info provision_errored local-exec | terraform_data.bad: (local-exec) Provisioning errored",
	})
	if !strings.Contains(r.stdout, `"type":"provision_complete"`) || !strings.Contains(r.stdout, `"@message":"Error: local-exec provisioner error"`) {
		t.Errorf("no provision_complete or no error diagnostic:\n%s", r.stdout)
	}
}

// TestLocalExecSensitiveOutputSuppressed: when the provisioner's
// configuration holds a sensitive value, each line of its output is
// replaced by OpenTofu's notice; the value is not printed.
func TestLocalExecSensitiveOutputSuppressed(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
variable "token" {
  default   = "s3cr3t-token"
  sensitive = true
}
resource "terraform_data" "x" {
  provisioner "local-exec" {
    command = "echo ${var.token}"
  }
}
`})
	r := rig(t, dir, "apply", "-auto-approve", "-no-color")
	if r.code != 0 {
		t.Fatalf("apply: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "s3cr3t") {
		t.Errorf("the sensitive value was printed:\n%s", r.stdout)
	}
	checkLines(t, "provisioner output", linesWith(r.stdout, "terraform_data.x (local-exec)"), []string{
		"terraform_data.x (local-exec): (output suppressed due to sensitive value in config)",
		"terraform_data.x (local-exec): (output suppressed due to sensitive value in config)",
	})
}

// TestLocalExecDestroy: a destroy-time provisioner runs before the delete
// with self, and its failure keeps the object.
func TestLocalExecDestroy(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `
resource "terraform_data" "x" {
  count = 1
  input = "v"
  provisioner "local-exec" {
    when    = destroy
    command = "echo bye ${self.input} ${count.index}; test -f ok"
  }
}
`})
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("apply: %s%s", r.stdout, r.stderr)
	}
	r := rig(t, dir, "destroy", "-auto-approve", "-no-color")
	if r.code != 1 || !strings.Contains(r.stdout, "terraform_data.x[0] (local-exec): bye v 0") || !strings.Contains(r.stderr, "exit status 1") {
		t.Fatalf("destroy with a failing provisioner: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if sf, _ := readStateFile(t, dir); instanceCount(sf) != 1 {
		t.Fatalf("the object was not kept")
	}
	writeFile(t, dir, "ok", "")
	r = rig(t, dir, "destroy", "-auto-approve", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "Destroy complete! Resources: 1 destroyed.") {
		t.Fatalf("destroy: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestLocalExecInterrupted: an interrupt stops a running command with its
// whole process group (a background child included); the object is left
// tainted.
func TestLocalExecInterrupted(t *testing.T) {
	bin := buildRig(t)
	dir := workDir(t, map[string]string{"main.tf": `
resource "terraform_data" "slow" {
  provisioner "local-exec" {
    command = "sleep 300 & echo $! > child.pid; echo started; wait"
  }
}
`})
	cmd := exec.Command(bin, "-chdir="+dir, "apply", "-auto-approve", "-input=false", "-no-color")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if strings.HasSuffix(sc.Text(), "(local-exec): started") {
			_ = cmd.Process.Signal(syscall.SIGINT)
			break
		}
	}
	_, _ = io.Copy(io.Discard, stdout)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err = <-waited:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the apply did not stop after the interrupt")
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("interrupted apply: %v, want exit status 1\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "local-exec provisioner error") || !strings.Contains(stderr.String(), "signal: killed") {
		t.Errorf("stderr does not report the killed command:\n%s", stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the command's background child %d survived the interrupt", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	sf, _ := readStateFile(t, dir)
	if len(sf.Resources) != 1 || sf.Resources[0].Instances[0].Status != "tainted" {
		t.Errorf("state after the interrupt: %+v, want the object tainted", sf.Resources)
	}
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool { return commandtest.Alive(pid) }

// A removed block that destroys a resource runs its destroy-time
// provisioners before each object is destroyed, with self and count.index;
// one that forgets the resource runs none.
func TestRemovedBlockProvisioners(t *testing.T) {
	const resources = `resource "terraform_data" "a" {
  count = 2
  input = "v${count.index}"
}
resource "terraform_data" "kept" {
  input = "k"
}
`
	dir := workDir(t, map[string]string{"main.tf": resources})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	writeFile(t, dir, "main.tf", `removed {
  from = terraform_data.a
  lifecycle {
    destroy = true
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo bye ${self.input} ${count.index} >> log"
  }
}
removed {
  from = terraform_data.kept
  lifecycle {
    destroy = false
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo never >> log"
  }
}
`)
	r := mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	for _, i := range []string{"0", "1"} {
		if !before(r.stdout, "terraform_data.a["+i+"]: Provisioning with 'local-exec'...", "terraform_data.a["+i+"]: Destruction complete") {
			t.Errorf("terraform_data.a[%s] was not provisioned before its destruction:\n%s", i, r.stdout)
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	slices.Sort(lines)
	if want := []string{"bye v0 0", "bye v1 1"}; !slices.Equal(lines, want) {
		t.Errorf("provisioners wrote %q, want %q", lines, want)
	}
	if got := stateAddresses(t, dir); len(got) != 0 {
		t.Errorf("state after the removals: %v", got)
	}
}

// The order of operations names the provisioners that run as part of an
// operation: create-time ones after a create, destroy-time ones before a
// delete, none for the deposed object of a create_before_destroy
// replacement; the -json stream lists them too.
func TestOrderNamesProvisioners(t *testing.T) {
	const cfg = `resource "terraform_data" "a" {
  triggers_replace = var.v
  provisioner "local-exec" {
    command = "true"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "true"
  }
}
resource "terraform_data" "c" {
  triggers_replace = var.v
  lifecycle {
    create_before_destroy = true
  }
  provisioner "local-exec" {
    when    = destroy
    command = "true"
  }
}
variable "v" {
  default = "1"
}
`
	dir := workDir(t, map[string]string{"main.tf": cfg})
	r := mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(r.stdout, "  1. create terraform_data.a (then local-exec)\n") {
		t.Errorf("order of the creates:\n%s", r.stdout)
	}
	r = mustRig(t, dir, "plan", "-no-color", "-var=v=2")
	checkContains(t, "order", r.stdout, "destroy terraform_data.a (local-exec first)", "create terraform_data.a (then local-exec)",
		"destroy terraform_data.c (deposed)  ", "create terraform_data.c\n",
	)
	var steps []string
	for _, line := range strings.Split(strings.TrimSpace(mustRig(t, dir, "plan", "-json", "-var=v=2").stdout), "\n") {
		var m struct {
			Type  string
			Steps [][]struct {
				Address, Action, Deposed string
				Provisioners             []string
			}
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		for _, wave := range m.Steps {
			for _, s := range wave {
				steps = append(steps, fmt.Sprintf("%s %s %s %v", s.Action, s.Address, s.Deposed, s.Provisioners))
			}
		}
	}
	slices.Sort(steps)
	want := []string{"create terraform_data.a  [local-exec]", "create terraform_data.c  []", "delete terraform_data.a  [local-exec]", "delete terraform_data.c planned []"}
	if !slices.Equal(steps, want) {
		t.Errorf("-json steps %q, want %q", steps, want)
	}
}

// A tainted object is shared with Terraform both ways: once rig has
// replaced the object its provisioner failed on, Terraform plans no
// changes; an object Terraform taints, rig plans to replace.
func TestTaintedObjectsWithTerraform(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": `resource "terraform_data" "x" {
  input = "v"
  provisioner "local-exec" {
    command = "test -f ok"
  }
}
`})
	tf := terraformIn(t, dir)
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color"); r.code != 1 {
		t.Fatalf("apply with a failing provisioner: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	writeFile(t, dir, "ok", "")
	r := mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(r.stdout, "Apply complete! Resources: 1 added, 0 changed, 1 destroyed.") {
		t.Fatalf("the tainted object was not replaced:\n%s", r.stdout)
	}
	if r := tf("init", "-no-color"); r.code != 0 {
		t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
	}
	if r := tf("plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Fatalf("terraform plan after rig's replacement: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := tf("taint", "-no-color", "terraform_data.x"); r.code != 0 {
		t.Fatalf("terraform taint: %s%s", r.stdout, r.stderr)
	}
	p := mustRig(t, dir, "plan", "-no-color")
	if !strings.Contains(p.stdout, "# terraform_data.x is tainted, so it must be replaced") || !strings.Contains(p.stdout, "Plan: 1 to add, 0 to change, 1 to destroy.") {
		t.Errorf("rig does not replace the object Terraform tainted:\n%s", p.stdout)
	}
}
