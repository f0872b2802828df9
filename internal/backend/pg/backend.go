package pg

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/parallel"
)

// Backend is the pg backend. It keeps no connection open: each call that
// needs one opens it and closes it before returning, except a locked
// Store, which owns its connection until Unlock. It is safe for concurrent
// use.
type Backend struct {
	cfg     Config
	connCfg *pgx.ConnConfig // never modified after New; Copy before use

	// Quoted identifiers, ready to put in SQL.
	table, lockTable, journalTable, schema string
	// hasJournal reports that journalTable exists (prepare created it or found
	// it): without it Stores keep no journal.
	hasJournal bool
	// creationKeys are the advisory lock keys that guard creating a row:
	// Terraform's and OpenTofu's.
	creationKeys []int64
}

var _ backend.Backend = (*Backend)(nil)

// New connects to the database, creates the schema, tables and index that
// are missing (unless the Config says to skip them), and returns the
// backend. It does not retry: a server it cannot reach is an error at once.
func New(ctx context.Context, cfg Config) (*Backend, error) {
	cfg = cfg.withDefaults()
	connCfg, err := pgx.ParseConfig(cfg.ConnStr)
	if err != nil {
		return nil, redact(fmt.Errorf("pg backend: parsing conn_str: %w", err), cfg.ConnStr)
	}
	if connCfg.RuntimeParams["application_name"] == "" {
		connCfg.RuntimeParams["application_name"] = DefaultApplicationName
	}
	b := &Backend{
		cfg:          cfg,
		connCfg:      connCfg,
		schema:       pgx.Identifier{cfg.SchemaName}.Sanitize(),
		table:        pgx.Identifier{cfg.SchemaName, cfg.TableName}.Sanitize(),
		lockTable:    pgx.Identifier{cfg.SchemaName, cfg.TableName + "_rig_locks"}.Sanitize(),
		journalTable: pgx.Identifier{cfg.SchemaName, cfg.TableName + "_rig_journal"}.Sanitize(),
		creationKeys: []int64{
			-1, // Terraform
			openTofuCreationKey(cfg.SchemaName),
		},
	}
	conn, err := b.connect(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := b.prepare(ctx, conn); err != nil {
		return nil, redact(fmt.Errorf("pg backend: preparing schema %s: %w", cfg.SchemaName, err), cfg.ConnStr)
	}
	return b, nil
}

// openTofuCreationKey is the creation lock OpenTofu takes: minus the FNV-32
// hash of the quoted schema name.
func openTofuCreationKey(schema string) int64 {
	h := fnv.New32()
	h.Write([]byte(pgx.Identifier{schema}.Sanitize()))
	return -int64(h.Sum32())
}

// Config returns the backend's configuration, defaults filled in.
func (b *Backend) Config() Config { return b.cfg }

// connect opens a new session.
func (b *Backend) connect(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, b.connCfg.Copy())
	if err != nil {
		return nil, redact(fmt.Errorf("pg backend: connecting to %s: %w", b.where(), err), b.cfg.ConnStr)
	}
	return conn, nil
}

// where names the server and database for error messages; callers redact
// it (a password with an unescaped "@" ends up in the host name).
func (b *Backend) where() string {
	return fmt.Sprintf("%s:%d/%s", b.connCfg.Host, b.connCfg.Port, b.connCfg.Database)
}

// prepare creates what is missing of the layout, in one transaction that
// holds a transaction-level advisory lock so that concurrent first runs do
// not race on CREATE … IF NOT EXISTS. The lock uses the two-key form, a key
// space Terraform's and OpenTofu's single-key locks never touch. It also
// decides, once for the Backend, whether Stores keep a journal: whether the
// journal table exists or is created here.
func (b *Backend) prepare(ctx context.Context, conn *pgx.Conn) error {
	var haveSchema, haveTable, haveLocks, haveJournal, haveIndex bool
	err := conn.QueryRow(ctx, `SELECT
		EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1),
		to_regclass($2) IS NOT NULL, to_regclass($3) IS NOT NULL, to_regclass($4) IS NOT NULL, to_regclass($5) IS NOT NULL`,
		b.cfg.SchemaName, b.table, b.lockTable, b.journalTable, pgx.Identifier{b.cfg.SchemaName, b.cfg.IndexName}.Sanitize(),
	).Scan(&haveSchema, &haveTable, &haveLocks, &haveJournal, &haveIndex)
	if err != nil {
		return err
	}
	// When the transaction below fails, New fails and b is not used.
	b.hasJournal = haveJournal || !b.cfg.SkipTableCreation
	var stmts []string
	if !haveSchema && !b.cfg.SkipSchemaCreation {
		stmts = append(stmts, `CREATE SCHEMA IF NOT EXISTS `+b.schema)
	}
	if !haveTable && !b.cfg.SkipTableCreation {
		stmts = append(stmts,
			`CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint`,
			`CREATE TABLE IF NOT EXISTS `+b.table+` (
				id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY,
				name text UNIQUE,
				data text
			)`)
	}
	if !haveLocks && !b.cfg.SkipTableCreation {
		stmts = append(stmts, `CREATE TABLE IF NOT EXISTS `+b.lockTable+` (
				name text PRIMARY KEY,
				lock_key bigint NOT NULL,
				pid integer NOT NULL,
				info text NOT NULL
			)`)
	}
	if !haveJournal && !b.cfg.SkipTableCreation {
		// A workspace's journal: a header row (record NULL) that Begin
		// writes, then one row per record, in seq order.
		stmts = append(stmts, `CREATE TABLE IF NOT EXISTS `+b.journalTable+` (
				name text NOT NULL,
				seq bigserial NOT NULL,
				lineage text NOT NULL,
				serial bigint NOT NULL,
				record bytea,
				PRIMARY KEY (name, seq)
			)`)
	}
	if !haveIndex && !b.cfg.SkipIndexCreation {
		stmts = append(stmts, `CREATE UNIQUE INDEX IF NOT EXISTS `+pgx.Identifier{b.cfg.IndexName}.Sanitize()+` ON `+b.table+` (name)`)
	}
	if len(stmts) == 0 {
		return nil
	}
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('rig'), hashtext($1))`, b.cfg.SchemaName); err != nil {
			return err
		}
		for _, s := range stmts {
			if _, err := tx.Exec(ctx, s); err != nil {
				return err
			}
		}
		return nil
	})
}

// withConn runs fn on a new session, retrying with backoff while the
// session fails (see retryable).
func (b *Backend) withConn(ctx context.Context, fn func(conn *pgx.Conn) error) error {
	return b.retry(ctx, func() error {
		conn, err := b.connect(ctx)
		if err != nil {
			return err
		}
		defer conn.Close(context.WithoutCancel(ctx))
		return fn(conn)
	})
}

// retry calls fn until it succeeds, fails with an error that is not a
// connection failure, or has been tried Config.Retry.Attempts times.
func (b *Backend) retry(ctx context.Context, fn func() error) error {
	delay := b.cfg.Retry.Base
	var err error
	for attempt := 1; ; attempt++ {
		err = fn()
		if err == nil || !retryable(err) {
			return err
		}
		if attempt >= b.cfg.Retry.Attempts {
			return fmt.Errorf("giving up after %d attempts: %w", attempt, err)
		}
		if werr := parallel.Sleep(ctx, delay); werr != nil {
			return errors.Join(werr, err)
		}
		delay = min(2*delay, b.cfg.Retry.Max)
	}
}

// Workspaces implements backend.Backend: "default" and the name of every
// row, including the placeholder of a workspace being locked for the first
// time.
func (b *Backend) Workspaces(ctx context.Context) ([]string, error) {
	names := []string{backend.DefaultWorkspace}
	err := b.withConn(ctx, func(conn *pgx.Conn) error {
		names = names[:1]
		rows, err := conn.Query(ctx, `SELECT name FROM `+b.table+` WHERE name IS NOT NULL AND name <> $1`, backend.DefaultWorkspace)
		if err != nil {
			return err
		}
		more, err := pgx.CollectRows(rows, pgx.RowTo[string])
		names = append(names, more...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing workspaces in %s: %w", b.table, err)
	}
	slices.Sort(names)
	return names, nil
}

// DeleteWorkspace implements backend.Backend by deleting the workspace's
// row (and any lock information and journal rig left for it).
func (b *Backend) DeleteWorkspace(ctx context.Context, name string) error {
	if name == backend.DefaultWorkspace {
		return backend.ErrDefaultWorkspace
	}
	if err := backend.ValidateWorkspaceName(name); err != nil {
		return err
	}
	var deleted int64
	err := b.withConn(ctx, func(conn *pgx.Conn) error {
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			tag, err := tx.Exec(ctx, `DELETE FROM `+b.table+` WHERE name = $1`, name)
			if err != nil {
				return err
			}
			deleted = tag.RowsAffected()
			_, err = tx.Exec(ctx, `DELETE FROM `+b.lockTable+` WHERE name = $1`, name)
			if isUndefinedTable(err) {
				err = nil
			}
			if err != nil || !b.hasJournal {
				return err
			}
			_, err = tx.Exec(ctx, `DELETE FROM `+b.journalTable+` WHERE name = $1`, name)
			return err
		})
	})
	if err != nil {
		return fmt.Errorf("deleting workspace %q: %w", name, err)
	}
	if deleted == 0 {
		return fmt.Errorf("deleting workspace %q: %w", name, backend.ErrWorkspaceNotFound)
	}
	return nil
}

// Store implements backend.Backend. It connects to nothing.
func (b *Backend) Store(ctx context.Context, workspace string) (backend.Store, error) {
	if err := backend.ValidateWorkspaceName(workspace); err != nil {
		return nil, err
	}
	return &Store{b: b, name: workspace}, nil
}

// isUndefinedTable reports a missing table: the lock table when
// skip_table_creation was set and nobody created it.
func isUndefinedTable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "42P01"
}
