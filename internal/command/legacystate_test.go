package command

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/backend/http/stateserver"
)

const twoResources = `resource "terraform_data" "a" {}
resource "terraform_data" "b" {}
output "a" {
  value = terraform_data.a.id
}
`

// stateFiles lists the state files and backups in dir, with their modes.
func stateFiles(t *testing.T, dir string) map[string]os.FileMode {
	t.Helper()
	out := map[string]os.FileMode{}
	matches, _ := filepath.Glob(filepath.Join(dir, "*.tfstate*"))
	for _, m := range matches {
		fi, err := os.Stat(m)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(m)] = fi.Mode().Perm()
	}
	return out
}

// -state and -state-out make apply read one file and write another, which
// is backed up first (-backup names the backup, "-" turns it off); every
// file is written 0600; the default state file is not touched; plan,
// output, state list, state show and a second apply read the file -state
// names.
func TestLegacyStateOptions(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": twoResources})
	r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-state=in.tfstate", "-state-out=out.tfstate")
	if r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "State path: out.tfstate") {
		t.Errorf("apply does not say where the state went:\n%s", r.stdout)
	}
	if got, want := stateFiles(t, dir), map[string]os.FileMode{"out.tfstate": 0o600}; !maps.Equal(got, want) {
		t.Fatalf("state files after apply -state-out: %v, want %v", got, want)
	}

	// The written file read back: nothing to do; its objects listed and shown.
	for _, args := range [][]string{
		{"plan", "-detailed-exitcode", "-no-color", "-state=out.tfstate"},
		{"state", "list", "-state=out.tfstate"},
		{"state", "show", "-state=out.tfstate", "terraform_data.a"},
		{"output", "-state=out.tfstate", "a"},
	} {
		r := rig(t, dir, args...)
		if r.code != 0 {
			t.Errorf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		if args[0] == "state" && args[1] == "list" && r.stdout != "terraform_data.a\nterraform_data.b\n" {
			t.Errorf("state list -state: %q", r.stdout)
		}
	}
	if r := rig(t, dir, "state", "list"); r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "No state file was found") {
		t.Errorf("the workspace has a state: exit %d %q\n%s", r.code, r.stdout, r.stderr)
	}

	// -state alone reads and writes one file, backed up as -backup says.
	r = rig(t, dir, "taint", "-no-color", "-state=out.tfstate", "-backup=saved.tfstate", "terraform_data.a")
	if r.code != 0 {
		t.Fatalf("taint: exit %d\n%s", r.code, r.stderr)
	}
	r = rig(t, dir, "apply", "-auto-approve", "-no-color", "-state=out.tfstate", "-backup=-")
	if r.code != 0 || !strings.Contains(r.stdout, "1 added, 0 changed, 1 destroyed") {
		t.Fatalf("apply -state: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "State path:") {
		t.Errorf("apply without -state-out names a state path:\n%s", r.stdout)
	}
	want := map[string]os.FileMode{"out.tfstate": 0o600, "saved.tfstate": 0o600}
	if got := stateFiles(t, dir); !maps.Equal(got, want) {
		t.Errorf("state files: %v, want %v", got, want)
	}
	saved, _ := os.ReadFile(filepath.Join(dir, "saved.tfstate"))
	if strings.Contains(string(saved), `"status": "tainted"`) {
		t.Errorf("the backup is the state after taint, not before:\n%s", saved)
	}
	r = rig(t, dir, "destroy", "-auto-approve", "-no-color", "-state=out.tfstate")
	if r.code != 0 || !strings.Contains(r.stdout, "2 destroyed") {
		t.Fatalf("destroy -state: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, ok := stateFiles(t, dir)["out.tfstate.backup"]; !ok {
		t.Errorf("destroy -state made no backup beside the file: %v", stateFiles(t, dir))
	}
}

// stampedBackup is the name OpenTofu gives a state command's backup.
var stampedBackup = regexp.MustCompile(`^terraform\.tfstate\.\d+\.backup$`)

// state rm, state mv and state replace-provider back up the state as
// OpenTofu's do, to terraform.tfstate.TIME.backup; state mv -state-out
// moves objects into another file, which it creates.
func TestStateCommandBackups(t *testing.T) {
	dir := workDir(t, map[string]string{"main.tf": twoResources})
	if r := rig(t, dir, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "state", "rm", "terraform_data.b"); r.code != 0 {
		t.Fatalf("state rm: exit %d\n%s", r.code, r.stderr)
	}
	var names []string
	for name, mode := range stateFiles(t, dir) {
		names = append(names, name)
		if mode != 0o600 {
			t.Errorf("%s has mode %v", name, mode)
		}
	}
	slices.Sort(names)
	if len(names) != 2 || names[0] != "terraform.tfstate" || !stampedBackup.MatchString(names[1]) {
		t.Errorf("files after state rm: %v, want terraform.tfstate and terraform.tfstate.TIME.backup", names)
	}

	r := rig(t, dir, "state", "mv", "-state-out=moved.tfstate", "terraform_data.a", "terraform_data.c")
	if r.code != 0 {
		t.Fatalf("state mv -state-out: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "state", "list"); r.stdout != "" {
		t.Errorf("the source still lists %q", r.stdout)
	}
	if r := rig(t, dir, "state", "list", "-state=moved.tfstate"); r.stdout != "terraform_data.c\n" {
		t.Errorf("the destination lists %q, want terraform_data.c", r.stdout)
	}
	if r := rig(t, dir, "state", "mv", "-state=moved.tfstate", "-backup=-", "terraform_data.c", "terraform_data.d"); r.code != 0 {
		t.Fatalf("state mv -state: exit %d\n%s", r.code, r.stderr)
	}
	if r := rig(t, dir, "state", "list", "-state=moved.tfstate"); r.stdout != "terraform_data.d\n" {
		t.Errorf("after a move within the -state file: %q", r.stdout)
	}
}

// With another backend than local, the operations refuse -state and its
// kin, which are the local backend's; the state commands read the local
// file -state names.
func TestLegacyStateOtherBackend(t *testing.T) {
	srv := stateserver.Start(t, stateserver.Options{Username: "ci", Password: httpPassword})
	dir := workDir(t, map[string]string{"main.tf": httpBlock(srv, "/state/app") + twoResources})
	t.Setenv("TF_HTTP_PASSWORD", httpPassword)
	mustRig(t, dir, "init", "-no-color", "-input=false")
	r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-state=x.tfstate")
	if r.code != 1 || !strings.Contains(r.stderr, "Legacy state options need the local backend") {
		t.Errorf("apply -state with the http backend: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.tfstate")); err == nil {
		t.Errorf("apply wrote x.tfstate")
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color")
	pulled := mustRig(t, dir, "state", "pull")
	writeFile(t, dir, "copy.tfstate", pulled.stdout)
	if r := rig(t, dir, "state", "list", "-state=copy.tfstate"); r.code != 0 || r.stdout != "terraform_data.a\nterraform_data.b\n" {
		t.Errorf("state list -state with the http backend: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
}
