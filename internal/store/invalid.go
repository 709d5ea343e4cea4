package store

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// IsInvalidInput reports whether the database refused a value it cannot
// hold: text that is not UTF-8 or holds a NUL character, a string too long
// for its column or index, a number out of range (PostgreSQL's SQLSTATE
// class 22, data exception, and 54000, an index row too large; SQLite's
// TOOBIG, MISMATCH and RANGE). That is a request's mistake that validation
// missed, not an outage: the API answers 400, since a retry can never
// succeed. Validating before the database is the rule; this is the net.
func IsInvalidInput(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return len(pe.Code) == 5 && (pe.Code[:2] == "22" || pe.Code == "54000")
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_TOOBIG, sqlite3.SQLITE_MISMATCH, sqlite3.SQLITE_RANGE:
			return true
		}
	}
	return false
}
