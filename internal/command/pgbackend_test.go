package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rig-iac/rig/internal/backend"
)

// TestPGLifecycle runs plan, apply and destroy through the pg backend,
// configured with an empty block and -backend-config values that init
// records for later commands.
func TestPGLifecycle(t *testing.T) {
	p := newPGTarget(t)
	dir := workDir(t, map[string]string{"main.tf": "terraform {\n  backend \"pg\" {}\n}\n" + simpleConfig})

	r := rig(t, dir, "plan", "-no-color", "-input=false")
	if r.code != 1 || !strings.Contains(r.stderr, "Backend initialization required") {
		t.Fatalf("plan before init: exit %d, want 1 asking for init:\n%s", r.code, r.stderr)
	}
	mustRig(t, dir, "init", "-no-color", "-backend-config=conn_str="+p.conn, "-backend-config=schema_name="+p.schema)
	rec, err := os.ReadFile(filepath.Join(dir, ".terraform", "terraform.tfstate"))
	if err != nil || !strings.Contains(string(rec), `"type": "pg"`) || !strings.Contains(string(rec), p.schema) {
		t.Fatalf("backend record = %s, %v", rec, err)
	}

	// Init again without -backend-config keeps the recorded values.
	mustRig(t, dir, "init", "-no-color")
	if again, _ := os.ReadFile(filepath.Join(dir, ".terraform", "terraform.tfstate")); string(again) != string(rec) {
		t.Errorf("init without -backend-config changed the record:\n%s\nwas:\n%s", again, rec)
	}
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); !os.IsNotExist(err) {
		t.Errorf("apply through pg wrote a local state file: %v", err)
	}
	sf := p.state(t, "default")
	if instanceCount(sf) != 2 || sf.Serial == 0 {
		t.Fatalf("state in the database: %d instances, serial %d", instanceCount(sf), sf.Serial)
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("plan after apply: exit %d, want 0 (no changes)\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mustRig(t, dir, "state", "pull")
	if row, _ := p.row(t, "default"); r.stdout != row {
		t.Errorf("state pull printed something other than the stored state")
	}
	if r := mustRig(t, dir, "state", "list"); r.stdout != "terraform_data.a\nterraform_data.b\n" {
		t.Errorf("state list = %q", r.stdout)
	}

	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false", "-var=value=two")
	if got := p.state(t, "default").Serial; got <= sf.Serial {
		t.Errorf("serial after an update = %d, want above %d", got, sf.Serial)
	}
	mustRig(t, dir, "destroy", "-auto-approve", "-no-color", "-input=false")
	if sf := p.state(t, "default"); instanceCount(sf) != 0 {
		t.Errorf("after destroy the state has %d instances", instanceCount(sf))
	}

	// A changed backend block needs init again.
	writeFile(t, dir, "main.tf", "terraform {\n  backend \"pg\" {\n    schema_name = \"other\"\n  }\n}\n"+simpleConfig)
	if r := rig(t, dir, "plan", "-no-color", "-input=false"); r.code != 1 || !strings.Contains(r.stderr, `Backend initialization required: please run "rig init"`) {
		t.Fatalf("plan with a changed backend: exit %d\n%s", r.code, r.stderr)
	}
}

// TestPGFromEnvironment: conn_str and schema_name from PG_CONN_STR and
// PG_SCHEMA_NAME.
func TestPGFromEnvironment(t *testing.T) {
	p := newPGTarget(t)
	t.Setenv("PG_CONN_STR", p.conn)
	t.Setenv("PG_SCHEMA_NAME", p.schema)
	dir := workDir(t, map[string]string{"main.tf": "terraform {\n  backend \"pg\" {}\n}\n" + simpleConfig})
	mustRig(t, dir, "init", "-no-color")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if sf := p.state(t, "default"); instanceCount(sf) != 2 {
		t.Errorf("state has %d instances, want 2", instanceCount(sf))
	}
}

// TestPGWorkspacesDoNotBlockEachOther: while another process holds the
// lock of one workspace, an apply in another one proceeds, and one in the
// locked workspace fails naming the holder.
func TestPGWorkspacesDoNotBlockEachOther(t *testing.T) {
	p := newPGTarget(t)
	dir := workDir(t, map[string]string{"main.tf": p.block() + simpleConfig})
	mustRig(t, dir, "init", "-no-color")
	mustRig(t, dir, "workspace", "new", "other")
	mustRig(t, dir, "workspace", "select", "default")

	held := p.store(t, "default")
	info := backend.NewLockInfo("OperationTypeApply")
	info.Who = "alice@build-host"
	id, err := held.Lock(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Unlock(context.Background(), id)

	r := rig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if r.code != 1 || !strings.Contains(r.stderr, "Error acquiring the state lock") || !strings.Contains(r.stderr, "alice@build-host") {
		t.Fatalf("apply in the locked workspace: exit %d, want 1 naming the holder:\n%s", r.code, r.stderr)
	}
	t.Setenv("TF_WORKSPACE", "other")
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if sf := p.state(t, "other"); instanceCount(sf) != 2 {
		t.Errorf("workspace other has %d instances, want 2", instanceCount(sf))
	}
	if data, _ := p.row(t, "default"); data != "" {
		t.Errorf("the locked workspace was written: %s", data)
	}
}

// TestWorkspaces drives the workspace commands on both backends.
func TestWorkspaces(t *testing.T) {
	for _, tc := range []struct {
		name  string
		block func(t *testing.T) (string, func(ws string) bool)
	}{
		{name: "local", block: func(t *testing.T) (string, func(string) bool) {
			return "", nil
		}},
		{name: "pg", block: func(t *testing.T) (string, func(string) bool) {
			p := newPGTarget(t)
			return p.block(), func(ws string) bool { _, ok := p.row(t, ws); return ok }
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			block, hasRow := tc.block(t)
			dir := workDir(t, map[string]string{"main.tf": block + simpleConfig})
			mustRig(t, dir, "init", "-no-color")
			if r := mustRig(t, dir, "workspace", "list"); r.stdout != "* default\n\n" {
				t.Errorf("list = %q", r.stdout)
			}
			r := mustRig(t, dir, "workspace", "new", "dev")
			if !strings.Contains(r.stdout, `Created and switched to workspace "dev"!`) {
				t.Errorf("new: %s", r.stdout)
			}
			if r := rig(t, dir, "workspace", "new", "dev"); r.code != 1 || !strings.Contains(r.stderr, "already exists") {
				t.Errorf("new again: exit %d %s", r.code, r.stderr)
			}
			if r := mustRig(t, dir, "workspace", "show"); r.stdout != "dev\n" {
				t.Errorf("show = %q", r.stdout)
			}
			mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
			if hasRow == nil {
				if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.d", "dev", "terraform.tfstate")); err != nil {
					t.Errorf("local workspace state: %v", err)
				}
			} else if !hasRow("dev") {
				t.Error("no row for workspace dev")
			}
			if r := mustRig(t, dir, "workspace", "list"); r.stdout != "  default\n* dev\n\n" {
				t.Errorf("list = %q", r.stdout)
			}
			if r := rig(t, dir, "workspace", "delete", "dev"); r.code != 1 || !strings.Contains(r.stderr, "your active workspace") {
				t.Errorf("deleting the active workspace: exit %d %s", r.code, r.stderr)
			}
			if r := rig(t, dir, "workspace", "select", "nope"); r.code != 1 || !strings.Contains(r.stderr, `Workspace "nope" doesn't exist`) {
				t.Errorf("select a missing workspace: exit %d %s", r.code, r.stderr)
			}
			mustRig(t, dir, "workspace", "select", "default")
			if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 2 {
				t.Errorf("default workspace sees dev's state: plan exit %d", r.code)
			}
			if r := rig(t, dir, "workspace", "delete", "dev"); r.code != 1 || !strings.Contains(r.stderr, "terraform_data.a") {
				t.Errorf("deleting a non-empty workspace: exit %d %s", r.code, r.stderr)
			}
			mustRig(t, dir, "workspace", "delete", "-force", "dev")
			if r := mustRig(t, dir, "workspace", "list"); r.stdout != "* default\n\n" {
				t.Errorf("list after delete = %q", r.stdout)
			}
			if hasRow != nil && hasRow("dev") {
				t.Error("row of workspace dev left after delete")
			}
			mustRig(t, dir, "workspace", "select", "-or-create", "qa")
			if r := mustRig(t, dir, "workspace", "show"); r.stdout != "qa\n" {
				t.Errorf("show = %q", r.stdout)
			}
		})
	}
}
