package pg

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"
	"github.com/rig-iac/rig/internal/backend"
)

// Journal implements backend.Store: the workspace's rows of the journal
// table, or nil when that table does not exist (skip_table_creation was set
// and nobody created it), and rig writes whole snapshots.
func (s *Store) Journal() backend.Journal {
	if !s.b.hasJournal {
		return nil
	}
	if s.journal == nil {
		s.journal = &stateJournal{s: s}
	}
	return s.journal
}

// stateJournal is a Store's journal: a header row (record NULL) naming the
// snapshot, then one row per record, in seq order. Every operation is one
// committed statement or transaction, so it is durable on return. It uses
// its Store's sessions: the held one, with Write's reconnection and
// relocking, while the Store is locked; a new one per call otherwise.
type stateJournal struct {
	s *Store
	// lineage and serial name the snapshot of the journal this value began;
	// begun is false until Begin, and again after Discard.
	lineage string
	serial  int64
	begun   bool
}

// errJournalGone: Append found no header for its journal.
var errJournalGone = errors.New("the journal was removed or replaced since Begin (by a Write of the state, a Discard or another Begin)")

// Begin implements backend.Journal: one transaction that deletes the
// workspace's rows and inserts the header row.
func (j *stateJournal) Begin(ctx context.Context, lineage string, serial uint64) error {
	if serial > math.MaxInt64 {
		return fmt.Errorf("beginning the state journal %s: serial %d is out of range", j.s.Path(), serial)
	}
	b := j.s.b
	err := j.s.onSession(ctx, func(conn *pgx.Conn) error {
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `DELETE FROM `+b.journalTable+` WHERE name = $1`, j.s.name); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO `+b.journalTable+` (name, lineage, serial, record) VALUES ($1, $2, $3, NULL)`,
				j.s.name, lineage, int64(serial))
			return err
		})
	})
	if err != nil {
		j.begun = false
		return fmt.Errorf("beginning the state journal %s: %w", j.s.Path(), err)
	}
	j.lineage, j.serial, j.begun = lineage, int64(serial), true
	return nil
}

// Append implements backend.Journal: one INSERT, made only while the
// journal's header is still the one Begin wrote (the first row, found
// through the primary key). An Append retried after a connection failure
// may insert its record twice, when the failed attempt had committed:
// records are idempotent, so a record loaded twice does no harm.
func (j *stateJournal) Append(ctx context.Context, record []byte) error {
	if !j.begun {
		return fmt.Errorf("appending to the state journal %s: not begun", j.s.Path())
	}
	if record == nil {
		record = []byte{} // pgx sends a nil slice as NULL, which marks the header
	}
	b := j.s.b
	err := j.s.onSession(ctx, func(conn *pgx.Conn) error {
		tag, err := conn.Exec(ctx, `INSERT INTO `+b.journalTable+` (name, lineage, serial, record)
			SELECT $1, $2, $3, $4::bytea
			WHERE EXISTS (SELECT 1 FROM (
				SELECT lineage, serial, record FROM `+b.journalTable+` WHERE name = $1 ORDER BY seq LIMIT 1
			) h WHERE h.record IS NULL AND h.lineage = $2 AND h.serial = $3)`,
			j.s.name, j.lineage, j.serial, record)
		if err == nil && tag.RowsAffected() == 0 {
			err = errJournalGone
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("appending to the state journal %s: %w", j.s.Path(), err)
	}
	return nil
}

// Load implements backend.Journal. A locked Store reads on its own session,
// falling back to a new one if that session failed, as Read does.
func (j *stateJournal) Load(ctx context.Context) (*backend.JournalContent, error) {
	var c *backend.JournalContent
	load := func(conn *pgx.Conn) error {
		c = nil
		rows, err := conn.Query(ctx, `SELECT lineage, serial, record IS NULL, coalesce(record, '') FROM `+j.s.b.journalTable+`
			WHERE name = $1 ORDER BY seq`, j.s.name)
		if err != nil {
			return err
		}
		var (
			lineage string
			serial  int64
			header  bool
			record  []byte
		)
		_, err = pgx.ForEachRow(rows, []any{&lineage, &serial, &header, &record}, func() error {
			switch {
			case c == nil && !header:
				return errors.New("its first row is not a header")
			case c == nil:
				if serial < 0 {
					return fmt.Errorf("its serial %d is negative", serial)
				}
				c = &backend.JournalContent{Lineage: lineage, Serial: uint64(serial)}
			case header:
				return errors.New("it has more than one header row")
			case lineage != c.Lineage || uint64(serial) != c.Serial:
				return fmt.Errorf("a record belongs to lineage %q serial %d, the journal to lineage %q serial %d", lineage, serial, c.Lineage, c.Serial)
			default:
				c.Records = append(c.Records, append([]byte{}, record...))
			}
			return nil
		})
		return err
	}
	if err := j.s.onReadSession(ctx, load); err != nil {
		return nil, fmt.Errorf("loading the state journal %s: %w", j.s.Path(), err)
	}
	return c, nil
}

// Discard implements backend.Journal: it deletes the workspace's rows.
func (j *stateJournal) Discard(ctx context.Context) error {
	j.begun = false
	err := j.s.onSession(ctx, func(conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, `DELETE FROM `+j.s.b.journalTable+` WHERE name = $1`, j.s.name)
		return err
	})
	if err != nil {
		return fmt.Errorf("discarding the state journal %s: %w", j.s.Path(), err)
	}
	return nil
}

// onSession runs fn, a change to the journal, on the Store's session. An
// unlocked Store opens a new session (retried, see withConn). A locked
// Store uses the session holding its lock, and after a connection failure
// retries as Write does, on a new session that has taken the lock again
// and found the state unchanged (else ErrStateChanged or a
// *backend.LockError): a journal is changed only under its lock.
func (s *Store) onSession(ctx context.Context, fn func(conn *pgx.Conn) error) error {
	if s.held == nil {
		return s.b.withConn(ctx, fn)
	}
	return s.b.retry(ctx, func() error {
		h := s.held
		if h.conn == nil || h.conn.IsClosed() {
			if _, err := s.relock(ctx, nil); err != nil {
				return err
			}
		}
		err := fn(h.conn)
		if err != nil && retryable(err) {
			s.dropConn(ctx)
		}
		return err
	})
}
