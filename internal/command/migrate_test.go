package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMigrateLocalPGRoundTrip moves the state of two workspaces from local
// files to PostgreSQL with `rig init -migrate-state` and back, and checks
// that every state arrives byte for byte.
func TestMigrateLocalPGRoundTrip(t *testing.T) {
	p := newPGTarget(t)
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	mustRig(t, dir, "init", "-no-color")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	mustRig(t, dir, "workspace", "new", "dev")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=value=dev")
	mustRig(t, dir, "workspace", "select", "default")
	localDefault := readFile(t, dir, "terraform.tfstate")
	localDev := readFile(t, dir, "terraform.tfstate.d/dev/terraform.tfstate")

	// To pg: init refuses to leave the local state behind silently.
	writeFile(t, dir, "main.tf", p.block()+simpleConfig)
	if r := rig(t, dir, "init", "-no-color", "-input=false"); r.code != 1 || !strings.Contains(r.stderr, "-migrate-state") {
		t.Fatalf("init without -migrate-state: exit %d\n%s", r.code, r.stderr)
	}
	if _, ok := p.row(t, "default"); ok {
		t.Fatal("init without -migrate-state wrote the state")
	}
	r := mustRig(t, dir, "init", "-no-color", "-input=false", "-migrate-state")
	if !strings.Contains(r.stdout, `Successfully configured the backend "pg"`) {
		t.Errorf("init -migrate-state output:\n%s", r.stdout)
	}
	for ws, want := range map[string]string{"default": localDefault, "dev": localDev} {
		if got, _ := p.row(t, ws); got != want {
			t.Errorf("workspace %s in pg differs from the local state:\n%s\nwant:\n%s", ws, got, want)
		}
	}
	if got := readFile(t, dir, "terraform.tfstate"); got != "" {
		t.Errorf("the local state was left in place after migrating away: %d bytes", len(got))
	}
	if got := readFile(t, dir, "terraform.tfstate.backup"); got != localDefault {
		t.Error("the local state's backup is not the migrated state")
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("plan on the migrated state: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=value=changed-in-pg")
	inPG, _ := p.row(t, "default")
	devInPG, _ := p.row(t, "dev")

	// And back to local.
	writeFile(t, dir, "main.tf", simpleConfig)
	if r := rig(t, dir, "plan", "-no-color", "-input=false"); r.code != 1 || !strings.Contains(r.stderr, "rig init") {
		t.Fatalf("plan after removing the backend block: exit %d\n%s", r.code, r.stderr)
	}
	mustRig(t, dir, "init", "-no-color", "-input=false", "-migrate-state")
	if got := readFile(t, dir, "terraform.tfstate"); got != inPG {
		t.Errorf("local state after migrating back differs from pg's:\n%s\nwant:\n%s", got, inPG)
	}
	if got := readFile(t, dir, "terraform.tfstate.d/dev/terraform.tfstate"); got != devInPG {
		t.Errorf("local dev state after migrating back differs from pg's")
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "terraform.tfstate")); !os.IsNotExist(err) {
		t.Errorf("backend record left after returning to the default local backend: %v", err)
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false", "-var=value=changed-in-pg"); r.code != 0 {
		t.Fatalf("plan on the state migrated back: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestMigrateRefusesToOverwrite: a migration that would replace an
// unrelated state in the destination stops unless -force-copy; -reconfigure
// switches without moving anything.
func TestMigrateRefusesToOverwrite(t *testing.T) {
	p := newPGTarget(t)
	other := workDir(t, map[string]string{"main.tf": p.block() + simpleConfig})
	mustRig(t, other, "init", "-no-color")
	mustRig(t, other, "apply", "-auto-approve", "-no-color", "-input=false", "-var=value=theirs")
	theirs, _ := p.row(t, "default")

	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	writeFile(t, dir, "main.tf", p.block()+simpleConfig)
	r := rig(t, dir, "init", "-no-color", "-input=false", "-migrate-state")
	if r.code != 1 || !strings.Contains(r.stderr, "unrelated state") {
		t.Fatalf("migrating over an unrelated state: exit %d\n%s", r.code, r.stderr)
	}
	if got, _ := p.row(t, "default"); got != theirs {
		t.Fatal("the refused migration changed the destination")
	}
	mustRig(t, dir, "init", "-no-color", "-input=false", "-reconfigure")
	if got, _ := p.row(t, "default"); got != theirs {
		t.Fatal("-reconfigure changed the destination")
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false", "-var=value=theirs"); r.code != 0 {
		t.Errorf("after -reconfigure, plan against their state: exit %d", r.code)
	}
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMigrateLocalS3PGRoundTrip moves the states of two workspaces from
// local files to S3, from S3 to PostgreSQL and back to local files with
// `rig init -migrate-state`, and checks that every state arrives byte for
// byte at each step.
func TestMigrateLocalS3PGRoundTrip(t *testing.T) {
	p := newPGTarget(t)
	s := newS3Target(t, true, true)
	dir := workDir(t, map[string]string{"main.tf": simpleConfig})
	mustRig(t, dir, "init", "-no-color")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	mustRig(t, dir, "workspace", "new", "dev")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=value=dev")
	mustRig(t, dir, "workspace", "select", "default")
	want := map[string]string{
		"default": readFile(t, dir, "terraform.tfstate"),
		"dev":     readFile(t, dir, "terraform.tfstate.d/dev/terraform.tfstate"),
	}

	// Local to S3.
	writeFile(t, dir, "main.tf", s.block()+simpleConfig)
	if r := rig(t, dir, "init", "-no-color", "-input=false"); r.code != 1 || !strings.Contains(r.stderr, "-migrate-state") {
		t.Fatalf("init without -migrate-state: exit %d\n%s", r.code, r.stderr)
	}
	r := mustRig(t, dir, "init", "-no-color", "-input=false", "-migrate-state")
	if !strings.Contains(r.stdout, `Successfully configured the backend "s3"`) {
		t.Errorf("init -migrate-state output:\n%s", r.stdout)
	}
	for ws, state := range want {
		if got, _ := s.object(t, ws); got != state {
			t.Errorf("workspace %s in S3 differs from the local state:\n%s\nwant:\n%s", ws, got, state)
		}
	}
	if got := readFile(t, dir, "terraform.tfstate"); got != "" {
		t.Errorf("the local state was left in place after migrating away: %d bytes", len(got))
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("plan on the state in S3: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=value=changed-in-s3")
	for ws := range want {
		want[ws], _ = s.object(t, ws)
	}

	// S3 to pg.
	writeFile(t, dir, "main.tf", p.block()+simpleConfig)
	mustRig(t, dir, "init", "-no-color", "-input=false", "-migrate-state")
	for ws, state := range want {
		if got, _ := p.row(t, ws); got != state {
			t.Errorf("workspace %s in pg differs from S3's:\n%s\nwant:\n%s", ws, got, state)
		}
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false", "-var=value=changed-in-s3"); r.code != 0 {
		t.Fatalf("plan on the state in pg: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// pg back to local.
	writeFile(t, dir, "main.tf", simpleConfig)
	mustRig(t, dir, "init", "-no-color", "-input=false", "-migrate-state")
	if got := readFile(t, dir, "terraform.tfstate"); got != want["default"] {
		t.Errorf("local state after the round trip differs:\n%s\nwant:\n%s", got, want["default"])
	}
	if got := readFile(t, dir, "terraform.tfstate.d/dev/terraform.tfstate"); got != want["dev"] {
		t.Errorf("local dev state after the round trip differs")
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false", "-var=value=changed-in-s3"); r.code != 0 {
		t.Fatalf("plan on the state migrated back: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
