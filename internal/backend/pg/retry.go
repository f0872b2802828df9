package pg

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/rig-iac/rig/internal/backend"
)

// retryable reports whether err is a failure of the session rather than of
// the statement: a connection that could not be opened, was closed, or
// that the server ended (administrator command, crash, shutdown). Such an
// operation may be tried again on a new session. Errors of the context
// are never retryable.
func retryable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrStateChanged) {
		return false
	}
	var le *backend.LockError
	var c *contention
	if errors.As(err, &le) || errors.As(err, &c) {
		return false
	}
	if errors.Is(err, errOldSession) {
		return true
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || // connection exception
			pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03" // admin shutdown, crash shutdown, cannot connect now
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) {
		return true
	}
	if pgconn.SafeToRetry(err) {
		return true
	}
	// pgx reports a use of a connection it already knows is closed this way.
	return strings.Contains(err.Error(), "conn closed")
}
