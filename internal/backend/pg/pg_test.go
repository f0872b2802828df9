package pg

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/backend/backendtest"
	"github.com/rig-iac/rig/internal/backend/pg/pgtest"
)

// helperEnv makes the test binary a helper process that locks a workspace
// ("CONNSTR|SCHEMA|WORKSPACE"), prints "locked", and waits to be killed.
const helperEnv = "RIG_PG_LOCK_HELPER"

func TestMain(m *testing.M) {
	backendtest.ServeLockHelper(helperEnv, runHelper)
	code := m.Run()
	pgtest.Stop()
	os.Exit(code)
}

func runHelper(spec string) error {
	parts := strings.Split(spec, "|")
	b, err := New(context.Background(), Config{ConnStr: parts[0], SchemaName: parts[1]})
	if err != nil {
		return err
	}
	s, err := b.Store(context.Background(), parts[2])
	if err != nil {
		return err
	}
	info := backend.NewLockInfo("OperationTypeApply")
	info.Info = "helper"
	if _, err := s.Lock(context.Background(), info); err != nil {
		return err
	}
	return nil
}

// newBackend returns a backend on a new schema of the test database.
func newBackend(t *testing.T, cfg Config) *Backend {
	t.Helper()
	if cfg.ConnStr == "" {
		cfg.ConnStr = pgtest.ConnString(t)
	}
	if cfg.SchemaName == "" {
		cfg.SchemaName = pgtest.Schema(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := New(ctx, cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return b
}

func openStore(t *testing.T, b *Backend, ws string) *Store {
	t.Helper()
	s, err := b.Store(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*Store)
}

func query[T any](t *testing.T, connStr, sql string, args ...any) T {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, connStr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var v T
	if err := conn.QueryRow(ctx, sql, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}

func TestConformance(t *testing.T) {
	backendtest.Run(t, func(t *testing.T) backend.Backend { return newBackend(t, Config{}) })
}

// TestLayout checks the tables against the DDL of Terraform's and
// OpenTofu's pg backend.
func TestLayout(t *testing.T) {
	b := newBackend(t, Config{})
	conn := pgtest.ConnString(t)
	cols := query[[]string](t, conn, `SELECT array_agg(column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') ORDER BY ordinal_position)
		FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'states'`, b.cfg.SchemaName)
	want := []string{
		"id bigint NO nextval('global_states_id_seq'::regclass)",
		"name text YES ",
		"data text YES ",
	}
	if !slices.Equal(cols, want) {
		t.Errorf("columns = %q, want %q", cols, want)
	}
	idx := query[string](t, conn, `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'states_by_name'`, b.cfg.SchemaName)
	if !strings.Contains(idx, "CREATE UNIQUE INDEX states_by_name ON "+b.cfg.SchemaName+".states USING btree (name)") {
		t.Errorf("index = %s", idx)
	}
	// rig's journal table.
	cols = query[[]string](t, conn, `SELECT array_agg(column_name || ' ' || data_type || ' ' || is_nullable ORDER BY ordinal_position)
		FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'states_rig_journal'`, b.cfg.SchemaName)
	want = []string{
		"name text NO",
		"seq bigint NO",
		"lineage text NO",
		"serial bigint NO",
		"record bytea YES",
	}
	if !slices.Equal(cols, want) {
		t.Errorf("journal columns = %q, want %q", cols, want)
	}
	pkey := query[string](t, conn, `SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'p'`, b.journalTable)
	if pkey != "PRIMARY KEY (name, seq)" {
		t.Errorf("journal primary key = %s", pkey)
	}
	// Preparing an existing layout again is a no-op.
	newBackend(t, Config{SchemaName: b.cfg.SchemaName})
}

// TestRowsAsTerraformWritesThem: a row written by Terraform is read, and
// rig's writes are plain rows Terraform reads.
func TestRowsAsTerraformWritesThem(t *testing.T) {
	ctx := context.Background()
	b := newBackend(t, Config{})
	conn := pgtest.ConnString(t)
	pgtest.Exec(t, conn, fmt.Sprintf(`INSERT INTO %s (name, data) VALUES ('tf', '{"version": 4}')`, b.table))
	got, err := openStore(t, b, "tf").Read(ctx)
	if err != nil || string(got) != `{"version": 4}` {
		t.Fatalf("Read = %q, %v", got, err)
	}
	if err := openStore(t, b, "rig").Write(ctx, []byte("{\"serial\": 3}\n")); err != nil {
		t.Fatal(err)
	}
	if got := query[string](t, conn, `SELECT data FROM `+b.table+` WHERE name = 'rig'`); got != "{\"serial\": 3}\n" {
		t.Errorf("row data = %q", got)
	}
	ws, err := b.Workspaces(ctx)
	if err != nil || !slices.Equal(ws, []string{"default", "rig", "tf"}) {
		t.Errorf("Workspaces = %q, %v", ws, err)
	}
}

// terraformLock takes a workspace's lock as Terraform does, on a session of
// its own, and returns a function that ends that session.
func terraformLock(t *testing.T, b *Backend, ws string) (release func()) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pgtest.ConnString(t))
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	var row, create bool
	err = conn.QueryRow(ctx, `SELECT states.id, pg_try_advisory_lock(states.id), pg_try_advisory_lock(-1) FROM `+b.table+` WHERE states.name = $1`, ws).Scan(&id, &row, &create)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(-1)`); err != nil {
			t.Fatal(err)
		}
	case err != nil:
		t.Fatal(err)
	case !row || !create:
		t.Fatalf("Terraform could not lock: row %v, create %v", row, create)
	default:
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock(-1)`); err != nil {
			t.Fatal(err)
		}
	}
	var once sync.Once
	release = func() { once.Do(func() { conn.Close(ctx) }) }
	t.Cleanup(release)
	return release
}

// TestLockingWithTerraform: rig and a Terraform-style session exclude each
// other, both on an existing row and while Terraform creates a workspace.
func TestLockingWithTerraform(t *testing.T) {
	ctx := context.Background()
	b := newBackend(t, Config{})
	s := openStore(t, b, "default")
	if err := s.Write(ctx, []byte("x")); err != nil {
		t.Fatal(err)
	}

	release := terraformLock(t, b, "default")
	_, err := s.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	var le *backend.LockError
	if !errors.As(err, &le) || !errors.Is(err, backend.ErrLocked) {
		t.Fatalf("Lock while Terraform holds it = %v, want a LockError", err)
	}
	if le.Info == nil || !strings.Contains(le.Info.Info, "recorded no lock information") {
		t.Errorf("LockError.Info = %+v, want a description of Terraform's session", le.Info)
	}
	release()

	// Terraform creating a workspace holds the creation lock; rig waits
	// (creationWait), then reports it.
	release = terraformLock(t, b, "new")
	start := time.Now()
	_, err = openStore(t, b, "new").Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	if !errors.As(err, &le) || le.Info == nil || !strings.Contains(le.Info.Info, "creation lock -1") {
		t.Fatalf("Lock while Terraform creates = %v, want a LockError naming the creation lock", err)
	}
	if d := time.Since(start); d < creationWait {
		t.Errorf("gave up after %s, want at least %s", d, creationWait)
	}
	release()

	// rig holding the lock: Terraform's query cannot take the row lock.
	id, err := s.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	if err != nil {
		t.Fatal(err)
	}
	got := query[bool](t, pgtest.ConnString(t), `SELECT pg_try_advisory_lock(states.id) FROM `+b.table+` WHERE states.name = 'default'`)
	if got {
		t.Error("a Terraform-style session took the row lock rig holds")
	}
	if err := s.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
}

// TestPlaceholderRow: locking a workspace with no row creates a placeholder
// that Unlock removes when nothing was written, and keeps when it was.
func TestPlaceholderRow(t *testing.T) {
	ctx := context.Background()
	b := newBackend(t, Config{})
	for _, write := range []bool{false, true} {
		s := openStore(t, b, "ws")
		id, err := s.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
		if err != nil {
			t.Fatal(err)
		}
		if ws, _ := b.Workspaces(ctx); !slices.Contains(ws, "ws") {
			t.Errorf("locked workspace not listed: %q", ws)
		}
		if data, err := s.Read(ctx); data != nil || err != nil {
			t.Errorf("placeholder reads %q, %v; want no state", data, err)
		}
		if write {
			if err := s.Write(ctx, []byte("state")); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Unlock(ctx, id); err != nil {
			t.Fatal(err)
		}
		ws, _ := b.Workspaces(ctx)
		if slices.Contains(ws, "ws") != write {
			t.Errorf("write=%v: after Unlock, Workspaces = %q", write, ws)
		}
	}
}

// TestKilledHolderReleasesLock: the lock of a process that dies is free at
// once, because its session ends.
func TestKilledHolderReleasesLock(t *testing.T) {
	b := newBackend(t, Config{})
	kill := backendtest.StartLockHelper(t, helperEnv, pgtest.ConnString(t)+"|"+b.cfg.SchemaName+"|default")
	s := openStore(t, b, "default")
	_, err := s.Lock(context.Background(), backend.NewLockInfo("OperationTypePlan"))
	var le *backend.LockError
	if !errors.As(err, &le) || le.Info == nil || le.Info.Info != "helper" || le.Info.Operation != "OperationTypeApply" {
		t.Fatalf("Lock = %v, want the helper's LockError", err)
	}
	kill()
	id, err := backend.LockWithTimeout(context.Background(), s, backend.NewLockInfo("OperationTypePlan"), 20*time.Second)
	if err != nil {
		t.Fatalf("Lock after the holder died: %v", err)
	}
	if err := s.Unlock(context.Background(), id); err != nil {
		t.Fatal(err)
	}
}

// terminate ends the server sessions of an application name and waits
// until they are gone.
func terminate(t *testing.T, connStr, app string) {
	t.Helper()
	n := query[int](t, connStr, `SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity WHERE application_name = $1`, app)
	if n == 0 {
		t.Fatalf("no session with application_name %s to terminate", app)
	}
}

// lockedStore returns a backend whose sessions carry a unique
// application_name, and a locked store of it with v1 written.
func lockedStore(t *testing.T, connStr string, retry Retry) (*Backend, *Store, string) {
	t.Helper()
	app := "rigtest_" + pgtest.Schema(t)[3:]
	b := newBackend(t, Config{ConnStr: pgtest.WithParam(connStr, "application_name", app), Retry: retry})
	s := openStore(t, b, "default")
	if _, err := s.Lock(context.Background(), backend.NewLockInfo("OperationTypeApply")); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(context.Background(), []byte("v1")); err != nil {
		t.Fatal(err)
	}
	return b, s, app
}

func TestWriteAfterConnectionLoss(t *testing.T) {
	ctx := context.Background()
	conn := pgtest.ConnString(t)

	t.Run("retried on a new session that takes the lock again", func(t *testing.T) {
		b, s, app := lockedStore(t, conn, Retry{})
		terminate(t, conn, app)
		if err := s.Write(ctx, []byte("v2")); err != nil {
			t.Fatalf("Write after the session ended: %v", err)
		}
		if got, _ := openStore(t, b, "default").Read(ctx); string(got) != "v2" {
			t.Errorf("state = %q, want v2", got)
		}
		if _, err := openStore(t, b, "default").Lock(ctx, backend.NewLockInfo("OperationTypePlan")); err == nil {
			t.Error("the lock was not taken again")
		}
		if err := s.Unlock(ctx, s.held.info.ID); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("someone else wrote meanwhile", func(t *testing.T) {
		b, s, app := lockedStore(t, conn, Retry{})
		terminate(t, conn, app)
		if err := openStore(t, b, "default").Write(ctx, []byte("other")); err != nil {
			t.Fatal(err)
		}
		if err := s.Write(ctx, []byte("v2")); !errors.Is(err, ErrStateChanged) {
			t.Fatalf("Write = %v, want ErrStateChanged", err)
		}
		if got, _ := openStore(t, b, "default").Read(ctx); string(got) != "other" {
			t.Errorf("state = %q, want the other writer's", got)
		}
	})

	t.Run("someone else holds the lock by then", func(t *testing.T) {
		b, s, app := lockedStore(t, conn, Retry{})
		terminate(t, conn, app)
		other := openStore(t, b, "default")
		id, err := other.Lock(ctx, backend.NewLockInfo("OperationTypeImport"))
		if err != nil {
			t.Fatal(err)
		}
		var le *backend.LockError
		if err := s.Write(ctx, []byte("v2")); !errors.As(err, &le) || le.Info == nil || le.Info.Operation != "OperationTypeImport" {
			t.Fatalf("Write = %v, want the new holder's LockError", err)
		}
		if err := other.Unlock(ctx, id); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("server unreachable: gives up, then works again", func(t *testing.T) {
		db := pgtest.NewDatabase(t)
		name := query[string](t, db, "SELECT current_database()")
		b, s, app := lockedStore(t, db, Retry{Attempts: 3, Base: 50 * time.Millisecond, Max: 100 * time.Millisecond})
		server := pgtest.Server(t)
		pgtest.Exec(t, server, "ALTER DATABASE "+name+" ALLOW_CONNECTIONS false")
		terminate(t, server, app)
		start := time.Now()
		if err := s.Write(ctx, []byte("v2")); err == nil {
			t.Fatal("Write succeeded with the database closed")
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("gave up after %s", d)
		}
		pgtest.Exec(t, server, "ALTER DATABASE "+name+" ALLOW_CONNECTIONS true")
		if err := s.Write(ctx, []byte("v3")); err != nil {
			t.Fatalf("Write once the database is back: %v", err)
		}
		if got := query[string](t, db, `SELECT data FROM `+b.table+` WHERE name = 'default'`); got != "v3" {
			t.Errorf("state = %q, want v3", got)
		}
	})
}

func TestConfigFromSettings(t *testing.T) {
	env := map[string]string{"PG_CONN_STR": "postgres://env", "PG_SCHEMA_NAME": "env_schema", "PG_SKIP_INDEX_CREATION": "true"}
	getenv := func(k string) string { return env[k] }
	got, err := ConfigFromSettings(map[string]string{"schema_name": "mine", "skip_table_creation": "true"}, getenv)
	want := Config{ConnStr: "postgres://env", SchemaName: "mine", TableName: "states", IndexName: "states_by_name", SkipTableCreation: true, SkipIndexCreation: true}
	if err != nil || got != want {
		t.Errorf("ConfigFromSettings = %+v, %v; want %+v", got, err, want)
	}
	if _, err := ConfigFromSettings(map[string]string{"bogus": "1"}, getenv); err == nil {
		t.Error("an unknown setting was accepted")
	}
	if _, err := ConfigFromSettings(map[string]string{"skip_schema_creation": "maybe"}, getenv); err == nil {
		t.Error("a bad boolean was accepted")
	}
}

// TestSkipCreation: with skip_schema_creation the schema is not created;
// with every skip_* set, an existing layout is used as it is.
func TestSkipCreation(t *testing.T) {
	ctx := context.Background()
	conn := pgtest.ConnString(t)
	schema := pgtest.Schema(t)
	if _, err := New(ctx, Config{ConnStr: conn, SchemaName: schema, SkipSchemaCreation: true}); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("New with skip_schema_creation on a missing schema = %v, want the schema's absence reported", err)
	}
	newBackend(t, Config{SchemaName: schema})
	b := newBackend(t, Config{SchemaName: schema, SkipSchemaCreation: true, SkipTableCreation: true, SkipIndexCreation: true})
	if err := openStore(t, b, "default").Write(ctx, []byte("x")); err != nil {
		t.Fatal(err)
	}
}

// beginJournal begins a journal for lin-1 serial 1 and appends one record.
func beginJournal(t *testing.T, s *Store) backend.Journal {
	t.Helper()
	ctx := context.Background()
	j := s.Journal()
	if j == nil {
		t.Fatal("Journal() = nil")
	}
	if err := j.Begin(ctx, "lin-1", 1); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(ctx, []byte("rec")); err != nil {
		t.Fatal(err)
	}
	return j
}

// TestWriteEndsJournal: Write deletes the journal in the transaction that
// writes the snapshot: when that transaction fails, the old snapshot and
// its journal are both still there; when it commits, neither is.
func TestWriteEndsJournal(t *testing.T) {
	ctx := context.Background()
	conn := pgtest.ConnString(t)
	for _, locked := range []bool{false, true} {
		t.Run(fmt.Sprintf("locked=%v", locked), func(t *testing.T) {
			b := newBackend(t, Config{})
			s := openStore(t, b, "default")
			if locked {
				id, err := s.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
				if err != nil {
					t.Fatal(err)
				}
				defer s.Unlock(ctx, id)
			}
			if err := s.Write(ctx, []byte("v1")); err != nil {
				t.Fatal(err)
			}
			j := beginJournal(t, s)

			// A journal whose deletion fails makes the whole Write fail.
			pgtest.Exec(t, conn,
				`CREATE FUNCTION `+b.cfg.SchemaName+`.refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
				`CREATE TRIGGER refuse BEFORE DELETE ON `+b.journalTable+` FOR EACH ROW EXECUTE FUNCTION `+b.cfg.SchemaName+`.refuse()`)
			if err := s.Write(ctx, []byte("v2")); err == nil || !strings.Contains(err.Error(), "refused") {
				t.Fatalf("Write with the journal undeletable = %v, want the trigger's error", err)
			}
			if got, err := s.Read(ctx); err != nil || string(got) != "v1" {
				t.Fatalf("after the failed Write, state = %q, %v; want v1", got, err)
			}
			if c, err := j.Load(ctx); err != nil || c == nil || len(c.Records) != 1 {
				t.Fatalf("after the failed Write, Load = %+v, %v; want the journal", c, err)
			}

			pgtest.Exec(t, conn, `DROP TRIGGER refuse ON `+b.journalTable)
			if err := s.Write(ctx, []byte("v2")); err != nil {
				t.Fatal(err)
			}
			if c, err := j.Load(ctx); err != nil || c != nil {
				t.Fatalf("after Write, Load = %+v, %v; want nil, nil", c, err)
			}
			if got, err := s.Read(ctx); err != nil || string(got) != "v2" {
				t.Fatalf("state = %q, %v; want v2", got, err)
			}
			// The journal Write ended takes no more records.
			if err := j.Append(ctx, []byte("late")); err == nil || !strings.Contains(err.Error(), "since Begin") {
				t.Fatalf("Append after Write = %v, want an error", err)
			}
			if c, err := j.Load(ctx); err != nil || c != nil {
				t.Fatalf("after a refused Append, Load = %+v, %v; want nil, nil", c, err)
			}
		})
	}
}

// TestJournalRows: the rows a journal is made of, and a Load that refuses
// rows that do not make one journal.
func TestJournalRows(t *testing.T) {
	ctx := context.Background()
	conn := pgtest.ConnString(t)
	b := newBackend(t, Config{})
	s := openStore(t, b, "default")
	if err := s.Journal().Append(ctx, []byte("x")); err == nil || !strings.Contains(err.Error(), "not begun") {
		t.Fatalf("Append before Begin = %v, want an error", err)
	}
	j := beginJournal(t, s)
	if err := j.Append(ctx, nil); err != nil {
		t.Fatal(err)
	}
	rows := query[[]string](t, conn, `SELECT array_agg(lineage || ' ' || serial || ' ' || coalesce(encode(record, 'escape'), 'NULL') ORDER BY seq)
		FROM `+b.journalTable+` WHERE name = 'default'`)
	if want := []string{"lin-1 1 NULL", "lin-1 1 rec", "lin-1 1 "}; !slices.Equal(rows, want) {
		t.Errorf("rows = %q, want %q", rows, want)
	}
	if c, err := j.Load(ctx); err != nil || c == nil || len(c.Records) != 2 || c.Records[1] == nil || len(c.Records[1]) != 0 {
		t.Fatalf("Load = %+v, %v; want rec and an empty record", c, err)
	}

	pgtest.Exec(t, conn, `INSERT INTO `+b.journalTable+` (name, lineage, serial, record) VALUES ('default', 'lin-1', 2, 'x')`)
	if c, err := j.Load(ctx); err == nil || !strings.Contains(err.Error(), "serial 2") {
		t.Fatalf("Load of rows of two snapshots = %+v, %v; want an error", c, err)
	}
	pgtest.Exec(t, conn, `DELETE FROM `+b.journalTable+` WHERE record IS NULL`)
	if c, err := j.Load(ctx); err == nil || !strings.Contains(err.Error(), "not a header") {
		t.Fatalf("Load without a header = %+v, %v; want an error", c, err)
	}

	// DeleteWorkspace deletes the journal too.
	other := openStore(t, b, "other")
	if err := other.Write(ctx, []byte("x")); err != nil {
		t.Fatal(err)
	}
	beginJournal(t, other)
	if err := b.DeleteWorkspace(ctx, "other"); err != nil {
		t.Fatal(err)
	}
	if n := query[int](t, conn, `SELECT count(*) FROM `+b.journalTable+` WHERE name = 'other'`); n != 0 {
		t.Errorf("%d journal rows left by DeleteWorkspace", n)
	}
}

// TestJournalAfterConnectionLoss: a locked Store's journal reconnects and
// takes the lock again as Write does, and refuses to go on when the state
// changed meanwhile.
func TestJournalAfterConnectionLoss(t *testing.T) {
	ctx := context.Background()
	conn := pgtest.ConnString(t)

	t.Run("retried on a new session that takes the lock again", func(t *testing.T) {
		b, s, app := lockedStore(t, conn, Retry{})
		j := s.Journal()
		terminate(t, conn, app)
		if err := j.Begin(ctx, "lin-1", 1); err != nil {
			t.Fatalf("Begin after the session ended: %v", err)
		}
		terminate(t, conn, app)
		if err := j.Append(ctx, []byte("rec")); err != nil {
			t.Fatalf("Append after the session ended: %v", err)
		}
		if _, err := openStore(t, b, "default").Lock(ctx, backend.NewLockInfo("OperationTypePlan")); err == nil {
			t.Error("the lock was not taken again")
		}
		// Load, like Read, falls back to a session of its own; Discard
		// takes the lock again.
		terminate(t, conn, app)
		if c, err := j.Load(ctx); err != nil || c == nil || len(c.Records) != 1 {
			t.Fatalf("Load after the session ended = %+v, %v", c, err)
		}
		if err := j.Discard(ctx); err != nil {
			t.Fatalf("Discard after the session ended: %v", err)
		}
		if _, err := openStore(t, b, "default").Lock(ctx, backend.NewLockInfo("OperationTypePlan")); err == nil {
			t.Error("the lock was not taken again")
		}
		if err := s.Unlock(ctx, s.held.info.ID); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("someone else wrote meanwhile", func(t *testing.T) {
		b, s, app := lockedStore(t, conn, Retry{})
		j := beginJournal(t, s)
		terminate(t, conn, app)
		if err := openStore(t, b, "default").Write(ctx, []byte("other")); err != nil {
			t.Fatal(err)
		}
		if err := j.Append(ctx, []byte("rec")); !errors.Is(err, ErrStateChanged) {
			t.Fatalf("Append = %v, want ErrStateChanged", err)
		}
	})
}

// TestNoJournalTable: with skip_table_creation and no journal table, stores
// keep no journal and the rest works; a journal table someone created is
// used.
func TestNoJournalTable(t *testing.T) {
	ctx := context.Background()
	conn := pgtest.ConnString(t)
	schema := pgtest.Schema(t)
	full := newBackend(t, Config{SchemaName: schema})
	pgtest.Exec(t, conn, `DROP TABLE `+full.journalTable)
	b := newBackend(t, Config{SchemaName: schema, SkipTableCreation: true})
	if n := query[int](t, conn, `SELECT count(*) FROM pg_tables WHERE schemaname = $1 AND tablename = 'states_rig_journal'`, schema); n != 0 {
		t.Fatal("the journal table was created despite skip_table_creation")
	}
	s := openStore(t, b, "ws")
	if j := s.Journal(); j != nil {
		t.Fatalf("Journal() = %v, want nil", j)
	}
	id, err := s.Lock(ctx, backend.NewLockInfo("OperationTypeApply"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := s.Unlock(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := openStore(t, b, "other").Write(ctx, []byte("y")); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteWorkspace(ctx, "ws"); err != nil {
		t.Fatal(err)
	}

	// Created by someone else, it is used.
	newBackend(t, Config{SchemaName: schema})
	b = newBackend(t, Config{SchemaName: schema, SkipTableCreation: true})
	if openStore(t, b, "ws").Journal() == nil {
		t.Error("Journal() = nil with the journal table there")
	}
}
