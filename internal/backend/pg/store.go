package pg

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/rig-iac/rig/internal/backend"
)

var _ backend.Store = (*Store)(nil)

// Store is one workspace's row. A Store value is used by one goroutine at a
// time. Unlocked, it opens a session for each call; between Lock and
// Unlock it owns the session that holds the lock (held.conn) and closes it
// in Unlock.
type Store struct {
	b       *Backend
	name    string
	held    *held         // nil when this Store holds no lock
	journal *stateJournal // made by the first call of Journal
}

// held is a lock a Store holds.
type held struct {
	// conn is the session holding the advisory lock; nil after it failed,
	// until Write takes the lock again on a new session.
	conn *pgx.Conn
	pid  uint32 // the server process of conn
	key  int64  // the advisory lock key: the row's id
	info backend.LockInfo
	// sum is md5(data) of the row as this lock last saw or wrote it,
	// computed by the server.
	sum string
}

// ErrStateChanged is returned by Write when the session holding the lock
// failed and, on a new session, the stored state turned out to have been
// changed by someone else meanwhile.
var ErrStateChanged = errors.New("the state was changed by someone else while the connection holding the lock was lost")

// Path returns the workspace's place in the database, as lock information
// reports it.
func (s *Store) Path() string {
	return fmt.Sprintf("%s.%s/%s", s.b.cfg.SchemaName, s.b.cfg.TableName, s.name)
}

// Read implements backend.Store. A missing row, a NULL (placeholder) or an
// empty data column is no state. A locked Store reads on its own session,
// falling back to a new one if that session failed.
func (s *Store) Read(ctx context.Context) ([]byte, error) {
	var data []byte
	read := func(conn *pgx.Conn) error {
		err := conn.QueryRow(ctx, `SELECT data FROM `+s.b.table+` WHERE name = $1`, s.name).Scan(&data)
		if errors.Is(err, pgx.ErrNoRows) {
			data = nil
			return nil
		}
		return err
	}
	if err := s.onReadSession(ctx, read); err != nil {
		return nil, fmt.Errorf("reading state %s: %w", s.Path(), err)
	}
	if len(data) == 0 {
		return nil, nil
	}
	return data, nil
}

// Write implements backend.Store: one transaction that inserts or replaces
// the row and deletes the workspace's journal, which the new snapshot makes
// obsolete (see upsert). A connection failure is retried (Config.Retry); a
// locked Store first takes its lock again on a new session and checks that
// the row still holds what it last wrote (or already holds data, when the
// failed attempt had committed), and fails with ErrStateChanged, or a
// *backend.LockError when someone else holds the lock by then.
func (s *Store) Write(ctx context.Context, data []byte) error {
	text := string(data) // a copy: the caller's slice is not kept
	var err error
	if s.held == nil {
		err = s.b.withConn(ctx, func(conn *pgx.Conn) error {
			_, err := s.b.upsert(ctx, conn, s.name, text)
			return err
		})
	} else {
		err = s.b.retry(ctx, func() error { return s.lockedWrite(ctx, text) })
	}
	if err != nil {
		return fmt.Errorf("writing state %s: %w", s.Path(), err)
	}
	return nil
}

func (s *Store) lockedWrite(ctx context.Context, text string) error {
	h := s.held
	if h.conn == nil || h.conn.IsClosed() {
		written, err := s.relock(ctx, &text)
		if err != nil || written {
			return err
		}
	}
	sum, err := s.b.upsert(ctx, h.conn, s.name, text)
	if err != nil {
		if retryable(err) {
			s.dropConn(ctx)
		}
		return err
	}
	h.sum = sum
	return nil
}

// upsert writes a workspace's row in one transaction and returns md5(data).
// The same transaction deletes the workspace's journal (when the journal
// table exists): the journal belongs to the snapshot being replaced, and
// the new snapshot holds what it recorded, so a crash leaves either the
// old snapshot with its journal or the new one without, never the new one
// with a journal replayed on top of it. Every write does this, a
// Terraform-compatible one included.
func (b *Backend) upsert(ctx context.Context, conn *pgx.Conn, name, text string) (string, error) {
	var sum string
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO `+b.table+` (name, data) VALUES ($1, $2)
			ON CONFLICT (name) DO UPDATE SET data = EXCLUDED.data
			RETURNING md5(data)`, name, text).Scan(&sum)
		if err != nil || !b.hasJournal {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM `+b.journalTable+` WHERE name = $1`, name)
		return err
	})
	return sum, err
}

// relock takes the held lock again on a new session after the old one
// failed. written reports that the row already holds *pending (the write
// that failed had committed after all); pending is nil when the caller is
// not writing the row (a journal operation), and then any change of the
// row is ErrStateChanged.
func (s *Store) relock(ctx context.Context, pending *string) (written bool, err error) {
	h := s.held
	conn, err := s.b.connect(ctx)
	if err != nil {
		return false, err
	}
	keep := false
	defer func() {
		if !keep {
			conn.Close(context.WithoutCancel(ctx))
		}
	}()
	key, sum, err := s.b.acquire(ctx, conn, s.name)
	var c *contention
	if errors.As(err, &c) && c.key == h.key && s.b.holderPID(ctx, conn, c.key) == h.pid {
		// The old session is still there (the server has not noticed that
		// its client is gone, or is still ending it): end it, and try again.
		_, _ = conn.Exec(ctx, `SELECT pg_terminate_backend($1)`, int32(h.pid))
		return false, errOldSession
	}
	if errors.As(err, &c) {
		return false, &backend.LockError{Info: s.b.holder(ctx, conn, s.name, c.key), Err: fmt.Errorf("the connection holding the state lock was lost: %w", backend.ErrLocked)}
	}
	if err != nil {
		return false, err
	}
	if key != h.key {
		s.b.unlockKey(ctx, conn, key)
		return false, ErrStateChanged
	}
	if sum != h.sum {
		if pending == nil {
			s.b.unlockKey(ctx, conn, key)
			return false, ErrStateChanged
		}
		var pendingSum string
		if err := conn.QueryRow(ctx, `SELECT md5($1::text)`, *pending).Scan(&pendingSum); err != nil {
			return false, err
		}
		if sum != pendingSum {
			s.b.unlockKey(ctx, conn, key)
			return false, ErrStateChanged
		}
		written = true
	}
	if err := s.b.recordLock(ctx, conn, s.name, key, h.info); err != nil {
		return false, err
	}
	keep = true
	h.conn, h.sum, h.pid = conn, sum, conn.PgConn().PID()
	return written, nil
}

// errOldSession: the lock is still held by this Store's failed session; retryable.
var errOldSession = errors.New("the failed session still holds the lock")

// onReadSession runs fn, a read, on the session holding the Store's lock,
// falling back to a new session if that one failed; an unlocked Store opens
// a new session.
func (s *Store) onReadSession(ctx context.Context, fn func(conn *pgx.Conn) error) error {
	h := s.held
	if h == nil || h.conn == nil {
		return s.b.withConn(ctx, fn)
	}
	err := fn(h.conn)
	if err != nil && retryable(err) {
		s.dropConn(ctx)
		err = s.b.withConn(ctx, fn)
	}
	return err
}

// dropConn closes the held session after it failed.
func (s *Store) dropConn(ctx context.Context) {
	if h := s.held; h != nil && h.conn != nil {
		h.conn.Close(context.WithoutCancel(ctx))
		h.conn = nil
	}
}
