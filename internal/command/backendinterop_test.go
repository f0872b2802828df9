package command

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/rig-iac/rig/internal/command/commandtest"
)

// terraformIn returns a function running the terraform binary in dir, or
// skips the test without one. It runs offline: no version check, no CLI
// configuration, no prompts.
func terraformIn(t *testing.T, dir string, env ...string) func(args ...string) result {
	t.Helper()
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform not on PATH")
	}
	return toolIn(t, tf, dir, env...)
}

// toolIn returns a function that runs the program bin (terraform, tofu)
// in dir with no network (no version check, no CLI configuration) and
// the extra environment env, and returns what it did.
func toolIn(t *testing.T, bin, dir string, env ...string) func(args ...string) result {
	return func(args ...string) result {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_CLI_CONFIG_FILE=/dev/null", "TF_INPUT=0"), env...)
		r, err := commandtest.Exec(cmd)
		if err != nil {
			t.Fatal(err)
		}
		return result{code: r.Code, stdout: r.Stdout, stderr: r.Stderr}
	}
}

// fixtureWorkdir copies an OpenTofu fixture's main.tf and backend record
// into a new directory, the record's conn_str (a -backend-config value,
// not part of its hash) pointed at conn when it has one.
func fixtureWorkdir(t *testing.T, fixture, conn string) string {
	t.Helper()
	record := readFixture(t, fixture, ".terraform", "terraform.tfstate")
	var rec map[string]any
	if err := json.Unmarshal([]byte(record), &rec); err != nil {
		t.Fatal(err)
	}
	cfg := rec["backend"].(map[string]any)["config"].(map[string]any)
	if cfg["conn_str"] != nil {
		record = strings.Replace(record, cfg["conn_str"].(string), conn, 1)
	}
	return workDir(t, map[string]string{
		"main.tf":                      readFixture(t, fixture, "main.tf"),
		".terraform/terraform.tfstate": record,
	})
}

// TestOpenTofuBackendRecords: in a directory tofu init set up for the pg
// backend, rig plans and applies without rig init, and rig init keeps
// OpenTofu's record (its hash and the -backend-config conn_str).
func TestOpenTofuBackendRecords(t *testing.T) {
	p := newPGTarget(t)
	t.Run("configured", func(t *testing.T) {
		// The fixture's block names schema_name "team_state", part of its hash.
		t.Cleanup(func() { dropSchema(t, p.conn, "team_state") })
		dir := fixtureWorkdir(t, "workdir-pg-configured", p.conn)
		if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 2 {
			t.Fatalf("plan: exit %d, want 2 (one to add)\n%s%s", r.code, r.stdout, r.stderr)
		}
		mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
		if _, ok := (pgTarget{conn: p.conn, schema: "team_state"}).row(t, "default"); !ok {
			t.Fatal("no state in schema team_state")
		}
		before := readRecord(t, dir)
		mustRig(t, dir, "init", "-no-color", "-input=false")
		after := readRecord(t, dir)
		if after.Backend.Hash != before.Backend.Hash || after.Backend.Config["conn_str"] != p.conn || len(after.Backend.Config) != 7 {
			t.Errorf("init rewrote OpenTofu's record %+v as %+v", before.Backend, after.Backend)
		}
	})
	t.Run("default", func(t *testing.T) {
		// Everything from the environment, as the fixture was made.
		t.Setenv("PG_CONN_STR", p.conn)
		t.Setenv("PG_SCHEMA_NAME", p.schema)
		dir := fixtureWorkdir(t, "workdir-pg-default", p.conn)
		if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 2 {
			t.Fatalf("plan: exit %d, want 2 (one to add)\n%s%s", r.code, r.stdout, r.stderr)
		}
		// A changed block is still a change.
		writeFile(t, dir, "main.tf", "terraform {\n  backend \"pg\" {\n    schema_name = \"other\"\n  }\n}\n")
		if r := rig(t, dir, "plan", "-no-color", "-input=false"); r.code != 1 || !strings.Contains(r.stderr, `Backend initialization required: please run "rig init"`) {
			t.Errorf("plan with another block: exit %d, want Backend initialization required\n%s", r.code, r.stderr)
		}
	})
}

// TestTerraformUsesRigBackendRecord: Terraform plans, without terraform
// init, in a directory rig init set up for the pg backend (with a
// -backend-config value, so only the hash tells that the block is
// unchanged), and rig plans after terraform init.
func TestTerraformUsesRigBackendRecord(t *testing.T) {
	p := newPGTarget(t)
	config := "terraform {\n  backend \"pg\" {\n    schema_name = \"" + p.schema + "\"\n  }\n}\n\nresource \"terraform_data\" \"a\" {\n  input = 1\n}\n"
	dir := workDir(t, map[string]string{"main.tf": config})
	terraform := terraformIn(t, dir)
	mustRig(t, dir, "init", "-no-color", "-input=false", "-backend-config=conn_str="+p.conn)
	mustRig(t, dir, "apply", "-auto-approve", "-no-color", "-input=false")
	if r := terraform("plan", "-detailed-exitcode", "-no-color"); r.code != 0 {
		t.Fatalf("terraform plan in rig's directory: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := terraform("init", "-no-color", "-reconfigure", "-backend-config=conn_str="+p.conn); r.code != 0 {
		t.Fatalf("terraform init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := rig(t, dir, "plan", "-detailed-exitcode", "-no-color", "-input=false"); r.code != 0 {
		t.Errorf("rig plan after terraform init: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// backendRecordJSON is the part of .terraform/terraform.tfstate the tests
// look at.
type backendRecordJSON struct {
	Backend struct {
		Type   string         `json:"type"`
		Config map[string]any `json:"config"`
		Hash   uint64         `json:"hash"`
	} `json:"backend"`
}

func readRecord(t *testing.T, dir string) backendRecordJSON {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".terraform", "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var rec backendRecordJSON
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func dropSchema(t *testing.T, conn, schema string) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, conn)
	if err != nil {
		t.Error(err)
		return
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
		t.Error(err)
	}
}
