package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrUnavailable marks a failure of the database itself (unreachable, full,
// read-only, timed out, closed) rather than of the request. Callers answer
// 503 and let the client retry; IsUnavailable recognises it and the engine
// errors that mean the same.
var ErrUnavailable = errors.New("store: unavailable")

// IsUnavailable reports whether err says the database cannot serve now: a
// lost or refused connection, a timeout (connect, pool, statement), a full
// disk, a read-only database, a lock wait that gave up, or a closed store.
// Domain errors (ErrNotFound, ErrConflict, ...) are not.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrUnavailable) || errors.Is(err, errStoreClosed) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	// database/sql has no exported error for a closed *sql.DB.
	if strings.Contains(err.Error(), "sql: database is closed") {
		return true
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return true
	}
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) || pgconn.Timeout(err) || pgconn.SafeToRetry(err) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return unavailablePgCode(pe.Code)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff { // the primary result code
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_READONLY,
			sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PROTOCOL:
			return true
		}
	}
	return false
}

// unavailablePgCode: SQLSTATE classes and codes of a server that cannot
// serve now (https://www.postgresql.org/docs/current/errcodes-appendix.html).
func unavailablePgCode(code string) bool {
	switch code {
	case "25006", // read_only_sql_transaction (a standby, or default_transaction_read_only)
		"55P03",          // lock_not_available (lock_timeout)
		"40001", "40P01": // serialization failure, deadlock: retryable
		return true
	}
	if len(code) < 2 {
		return false
	}
	switch code[:2] {
	case "08", // connection exception
		"53", // insufficient resources: disk full, out of memory, too many connections
		"57", // operator intervention: query canceled (statement_timeout), shutdown
		"58": // system error: I/O error
		return true
	}
	return false
}
