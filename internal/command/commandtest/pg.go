package commandtest

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

// PGTarget is a schema of the test database for one test's pg backend.
type PGTarget struct {
	Conn   string // connection string
	Schema string
}

// NewPGTarget gives the test a schema of its own in the test database
// (pgtest: RIG_TEST_PG_CONN's, or a throwaway cluster), or skips it.
func NewPGTarget(t testing.TB) PGTarget {
	t.Helper()
	return PGTarget{Conn: pgtest.ConnString(t), Schema: pgtest.Schema(t)}
}

// Block is the terraform block selecting this target.
func (p PGTarget) Block() string {
	return fmt.Sprintf("terraform {\n  backend \"pg\" {\n    conn_str    = %q\n    schema_name = %q\n  }\n}\n", p.Conn, p.Schema)
}

// Row returns a workspace's data column; ok is false when there is no row
// or it is NULL.
func (p PGTarget) Row(t testing.TB, ws string) (data string, ok bool) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, p.Conn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var d *string
	err = conn.QueryRow(ctx, `SELECT data FROM `+pgx.Identifier{p.Schema, "states"}.Sanitize()+` WHERE name = $1`, ws).Scan(&d)
	if errors.Is(err, pgx.ErrNoRows) || d == nil {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return *d, true
}

// State parses a workspace's state row.
func (p PGTarget) State(t testing.TB, ws string) StateFile {
	t.Helper()
	data, ok := p.Row(t, ws)
	if !ok {
		t.Fatalf("no state row for workspace %s", ws)
	}
	var sf StateFile
	if err := json.Unmarshal([]byte(data), &sf); err != nil {
		t.Fatalf("state row is not JSON: %v", err)
	}
	return sf
}

// DurableInstances counts the instances a run recovering the workspace
// would find: those of its row with its journal replayed onto them.
func (p PGTarget) DurableInstances(t testing.TB, ws string) int {
	t.Helper()
	ctx := context.Background()
	s := p.Store(t, ws)
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

// Store opens a store of this target, as another process would.
func (p PGTarget) Store(t testing.TB, ws string) backend.Store {
	t.Helper()
	b, err := pg.New(context.Background(), pg.Config{ConnStr: p.Conn, SchemaName: p.Schema})
	if err != nil {
		t.Fatal(err)
	}
	s, err := b.Store(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TerminateSessions ends every session of an application name on the
// server, waiting for each to end, and returns how many there were.
func TerminateSessions(t testing.TB, server, app string) int {
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
