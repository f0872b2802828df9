package pg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/rig-iac/rig/internal/backend"
	"github.com/rig-iac/rig/internal/parallel"
)

// creationWait is how long Lock keeps trying while another session holds a
// creation lock, which Terraform, OpenTofu and rig hold only for a moment
// (except Terraform's first run on the default workspace).
const creationWait = 2 * time.Second

// Lock implements backend.Store. It opens the session that will hold the
// lock, takes the advisory lock on the workspace's row (inserting a
// placeholder row first if there is none), and records info in the lock
// table. On contention the *backend.LockError carries the holder's
// LockInfo: the one rig recorded, or, for a session that recorded none
// (Terraform, OpenTofu), one describing that session.
func (s *Store) Lock(ctx context.Context, info backend.LockInfo) (string, error) {
	if s.held != nil {
		holder := s.held.info
		return "", &backend.LockError{Info: &holder, Err: backend.ErrLocked}
	}
	if info.ID == "" {
		info.ID = backend.NewLockInfo(info.Operation).ID
	}
	info.Path = s.Path()
	conn, err := s.b.connect(ctx)
	if err != nil {
		return "", fmt.Errorf("locking workspace %q: %w", s.name, err)
	}
	key, sum, err := s.b.acquire(ctx, conn, s.name)
	if err == nil {
		err = s.b.recordLock(ctx, conn, s.name, key, info)
		if err != nil {
			s.b.unlockKey(ctx, conn, key)
		}
	}
	if err != nil {
		var c *contention
		if errors.As(err, &c) {
			err = &backend.LockError{Info: s.b.holder(ctx, conn, s.name, c.key), Err: backend.ErrLocked}
		} else {
			err = fmt.Errorf("locking workspace %q: %w", s.name, err)
		}
		conn.Close(context.WithoutCancel(ctx))
		return "", err
	}
	s.held = &held{conn: conn, pid: conn.PgConn().PID(), key: key, info: info, sum: sum}
	return info.ID, nil
}

// Unlock implements backend.Store: it removes the placeholder row if
// nothing was written, removes the lock information, releases the advisory
// lock and closes the session. When the session had already failed, the
// server released the lock with it, and Unlock succeeds.
func (s *Store) Unlock(ctx context.Context, id string) error {
	h := s.held
	switch {
	case h == nil:
		return fmt.Errorf("unlocking workspace %q: this store holds no lock", s.name)
	case h.info.ID != id:
		return fmt.Errorf("unlocking workspace %q: lock ID %q does not match the held lock %q", s.name, id, h.info.ID)
	}
	s.held = nil
	if h.conn == nil || h.conn.IsClosed() {
		return nil
	}
	defer h.conn.Close(context.WithoutCancel(ctx))
	err := pgx.BeginFunc(ctx, h.conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM `+s.b.table+` WHERE name = $1 AND id = $2 AND data IS NULL`, s.name, h.key); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM `+s.b.lockTable+` WHERE name = $1 AND pid = pg_backend_pid()`, s.name)
		if isUndefinedTable(err) {
			err = nil
		}
		return err
	})
	if err == nil {
		_, err = h.conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, h.key)
	}
	if err != nil && !retryable(err) {
		// Closing the session (deferred) releases the lock all the same.
		return fmt.Errorf("unlocking workspace %q: %w", s.name, err)
	}
	return nil
}

// contention says that the advisory lock key is held by another session.
type contention struct{ key int64 }

func (c *contention) Error() string { return fmt.Sprintf("advisory lock %d is held", c.key) }

// acquire takes the workspace's row lock on conn, following Terraform's and
// OpenTofu's protocol: lock the row's id, and make sure no session holds a
// creation lock; with no row, take the creation locks, insert a
// placeholder row and start again. It returns the key and md5(data) of the
// row, or a *contention.
func (b *Backend) acquire(ctx context.Context, conn *pgx.Conn, name string) (key int64, sum string, err error) {
	deadline := time.Now().Add(creationWait)
	for {
		var got bool
		err := conn.QueryRow(ctx, `SELECT id, pg_try_advisory_lock(id) FROM `+b.table+` WHERE name = $1`, name).Scan(&key, &got)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			blocked, err := b.tryCreation(ctx, conn)
			if err != nil {
				return 0, "", err
			}
			if blocked != 0 {
				if time.Now().Before(deadline) {
					if err := parallel.Sleep(ctx, 50*time.Millisecond); err != nil {
						return 0, "", err
					}
					continue
				}
				return 0, "", &contention{key: blocked}
			}
			_, err = conn.Exec(ctx, `INSERT INTO `+b.table+` (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, name)
			if rerr := b.releaseCreation(ctx, conn); err == nil {
				err = rerr
			}
			if err != nil {
				return 0, "", err
			}
			continue
		case err != nil:
			return 0, "", err
		case !got:
			return 0, "", &contention{key: key}
		}
		// The row is ours; nobody may be creating a workspace meanwhile.
		blocked, err := b.tryCreation(ctx, conn)
		if err == nil && blocked == 0 {
			err = b.releaseCreation(ctx, conn)
		}
		if err != nil || blocked != 0 {
			b.unlockKey(ctx, conn, key)
			if err != nil {
				return 0, "", err
			}
			if time.Now().Before(deadline) {
				if err := parallel.Sleep(ctx, 50*time.Millisecond); err != nil {
					return 0, "", err
				}
				continue
			}
			return 0, "", &contention{key: blocked}
		}
		// The row may have been deleted (and created again) between the
		// snapshot that found it and the lock: check it is still there.
		var now int64
		err = conn.QueryRow(ctx, `SELECT id, md5(coalesce(data, '')) FROM `+b.table+` WHERE name = $1`, name).Scan(&now, &sum)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			b.unlockKey(ctx, conn, key)
			return 0, "", err
		}
		if err == nil && now == key {
			return key, sum, nil
		}
		b.unlockKey(ctx, conn, key)
	}
}

// tryCreation tries to take every creation lock; if one is held elsewhere
// it releases those it took and returns the key it could not take.
func (b *Backend) tryCreation(ctx context.Context, conn *pgx.Conn) (blocked int64, err error) {
	var taken []int64
	for _, k := range b.creationKeys {
		var got bool
		if err = conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, k).Scan(&got); err != nil {
			blocked = k
			break
		}
		if !got {
			blocked = k
			break
		}
		taken = append(taken, k)
	}
	if blocked != 0 {
		for _, k := range taken {
			b.unlockKey(ctx, conn, k)
		}
	}
	return blocked, err
}

func (b *Backend) releaseCreation(ctx context.Context, conn *pgx.Conn) error {
	for _, k := range b.creationKeys {
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, k); err != nil {
			return err
		}
	}
	return nil
}

// unlockKey releases an advisory lock, ignoring failures: a failed session
// holds no lock.
func (b *Backend) unlockKey(ctx context.Context, conn *pgx.Conn, key int64) {
	_, _ = conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, key)
}

// recordLock stores the lock's information for contenders to read.
func (b *Backend) recordLock(ctx context.Context, conn *pgx.Conn, name string, key int64, info backend.LockInfo) error {
	data, err := json.Marshal(info)
	if err != nil {
		return err
	}
	_, err = conn.Exec(ctx, `INSERT INTO `+b.lockTable+` (name, lock_key, pid, info) VALUES ($1, $2, pg_backend_pid(), $3)
		ON CONFLICT (name) DO UPDATE SET lock_key = EXCLUDED.lock_key, pid = EXCLUDED.pid, info = EXCLUDED.info`,
		name, key, string(data))
	if isUndefinedTable(err) {
		return nil
	}
	return err
}

// holder describes the session holding an advisory lock key: the LockInfo
// rig recorded if that session is the one that recorded it, else what
// PostgreSQL knows of the session. nil when nobody holds the key any more
// or nothing could be read.
func (b *Backend) holder(ctx context.Context, conn *pgx.Conn, name string, key int64) *backend.LockInfo {
	var (
		pid          int32
		user, app    *string
		addr         *string
		backendStart *time.Time
	)
	err := conn.QueryRow(ctx, `SELECT l.pid, a.usename::text, a.application_name, host(a.client_addr), a.backend_start
		FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE `+holderCond+` LIMIT 1`, key).Scan(&pid, &user, &app, &addr, &backendStart)
	if err != nil {
		return nil
	}
	var recorded string
	var recordedPid int32
	err = conn.QueryRow(ctx, `SELECT pid, info FROM `+b.lockTable+` WHERE name = $1`, name).Scan(&recordedPid, &recorded)
	if err == nil && recordedPid == pid {
		var info backend.LockInfo
		if json.Unmarshal([]byte(recorded), &info) == nil {
			return &info
		}
	}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	info := &backend.LockInfo{
		Operation: "OperationTypeInvalid",
		Who:       str(user) + "@" + str(addr),
		Path:      fmt.Sprintf("%s.%s/%s", b.cfg.SchemaName, b.cfg.TableName, name),
		Info: fmt.Sprintf("held by PostgreSQL session %d (application_name %q), which recorded no lock information: Terraform or OpenTofu, or rig creating a workspace",
			pid, str(app)),
	}
	if key < 0 {
		info.Info += fmt.Sprintf("; it holds the workspace creation lock %d", key)
	}
	if backendStart != nil {
		info.Created = backendStart.UTC()
	}
	return info
}

// holderCond selects the pg_locks row of the session holding the
// single-key advisory lock $1 in this database.
const holderCond = `l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
	AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
	AND ((l.classid::bigint << 32) | l.objid::bigint) = $1`

// holderPID returns the process ID of the session holding a key, 0 if none.
func (b *Backend) holderPID(ctx context.Context, conn *pgx.Conn, key int64) uint32 {
	var pid int32
	_ = conn.QueryRow(ctx, `SELECT l.pid FROM pg_locks l WHERE `+holderCond+` LIMIT 1`, key).Scan(&pid)
	return uint32(pid)
}
