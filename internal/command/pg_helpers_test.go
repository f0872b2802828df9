package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/pg"
	"github.com/rig-iac/rig/internal/backend/pg/pgtest"
	"github.com/rig-iac/rig/internal/state/journal"
	"github.com/rig-iac/rig/internal/state/statefile"
)

// pgTarget is a schema of the test database for one test's pg backend.
type pgTarget struct {
	conn   string // connection string
	schema string
}

func newPGTarget(t *testing.T) pgTarget {
	t.Helper()
	return pgTarget{conn: pgtest.ConnString(t), schema: pgtest.Schema(t)}
}

// block is the terraform block selecting this target.
func (p pgTarget) block() string {
	return fmt.Sprintf("terraform {\n  backend \"pg\" {\n    conn_str    = %q\n    schema_name = %q\n  }\n}\n", p.conn, p.schema)
}

// row returns a workspace's data column; ok is false when there is no row
// or it is NULL.
func (p pgTarget) row(t *testing.T, ws string) (data string, ok bool) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, p.conn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var d *string
	err = conn.QueryRow(ctx, `SELECT data FROM `+pgx.Identifier{p.schema, "states"}.Sanitize()+` WHERE name = $1`, ws).Scan(&d)
	if errors.Is(err, pgx.ErrNoRows) || d == nil {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return *d, true
}

// state parses a workspace's state row.
func (p pgTarget) state(t *testing.T, ws string) stateFile {
	t.Helper()
	data, ok := p.row(t, ws)
	if !ok {
		t.Fatalf("no state row for workspace %s", ws)
	}
	var sf stateFile
	if err := json.Unmarshal([]byte(data), &sf); err != nil {
		t.Fatalf("state row is not JSON: %v", err)
	}
	return sf
}

// durableInstances counts the instances a run recovering the workspace
// would find: those of its row with its journal replayed onto them.
func (p pgTarget) durableInstances(t *testing.T, ws string) int {
	t.Helper()
	ctx := context.Background()
	s := p.store(t, ws)
	data, err := s.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := statefile.Parse(data)
	if err != nil {
		t.Fatalf("state row: %v", err)
	}
	c, err := s.Journal().Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if c != nil {
		if c.Lineage != st.Lineage || c.Serial != st.Serial {
			t.Fatalf("the journal belongs to lineage %s serial %d, the row is lineage %s serial %d", c.Lineage, c.Serial, st.Lineage, st.Serial)
		}
		if err := journal.Replay(st, c.Records); err != nil {
			t.Fatal(err)
		}
	}
	return len(st.Objects())
}

// store opens a store of this target, as another process would.
func (p pgTarget) store(t *testing.T, ws string) backend.Store {
	t.Helper()
	b, err := pg.New(context.Background(), pg.Config{ConnStr: p.conn, SchemaName: p.schema})
	if err != nil {
		t.Fatal(err)
	}
	s, err := b.Store(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mustRig runs a command that must succeed and returns its result.
func mustRig(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r := rig(t, dir, args...)
	if r.code != 0 {
		t.Fatalf("rig %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// terminateSessions ends every session of an application name, waiting for
// each to end, and returns how many there were.
func terminateSessions(t *testing.T, server, app string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
