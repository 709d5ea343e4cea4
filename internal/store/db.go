package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Engine names.
const (
	EngineSQLite   = "sqlite"
	EnginePostgres = "postgres"
)

// execer is what *sql.DB and *sql.Tx have in common.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// conn runs the one set of queries, written with PostgreSQL's $N
// placeholders, on either engine: for SQLite it rewrites $N to ?N (same
// numbering) and drops the PostgreSQL-only row-locking clause.
type conn struct {
	e      execer
	sqlite bool
}

// skipLocked marks where PostgreSQL needs FOR UPDATE SKIP LOCKED. SQLite has
// a single writer connection, so claims never race there.
const skipLocked = "/*skip-locked*/"

func (c conn) rebind(q string) string {
	if !c.sqlite {
		return strings.Replace(q, skipLocked, "FOR UPDATE SKIP LOCKED", 1)
	}
	q = strings.Replace(q, skipLocked, "", 1)
	return strings.ReplaceAll(q, "$", "?")
}

func (c conn) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return c.e.ExecContext(ctx, c.rebind(q), args...)
}

func (c conn) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return c.e.QueryContext(ctx, c.rebind(q), args...)
}

func (c conn) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return c.e.QueryRowContext(ctx, c.rebind(q), args...)
}

// sqlStore is the Store of both engines.
type sqlStore struct {
	queries
	engine string
	writer *sql.DB // SQLite: the single writer connection; PostgreSQL: the pool
	reader *sql.DB // SQLite: a read-only pool; PostgreSQL: the same pool
}

// queries implements Queries. Outside a transaction w and r are the writer
// and reader pools; inside one both are the transaction.
type queries struct {
	w, r  conn
	store *sqlStore
	inTx  bool
}

func newSQLStore(engine string, writer, reader *sql.DB) *sqlStore {
	s := &sqlStore{engine: engine, writer: writer, reader: reader}
	lite := engine == EngineSQLite
	s.queries = queries{w: conn{writer, lite}, r: conn{reader, lite}, store: s}
	return s
}

func (s *sqlStore) Engine() string { return s.engine }

// Ping checks the read pool: on SQLite the single writer connection may be
// busy with a transaction, which says nothing about reachability.
func (s *sqlStore) Ping(ctx context.Context) error {
	return s.reader.PingContext(ctx)
}

func (s *sqlStore) Close() error {
	err := s.writer.Close()
	if s.reader != s.writer {
		err = errors.Join(err, s.reader.Close())
	}
	return err
}

func (s *sqlStore) InTx(ctx context.Context, fn func(tx Queries) error) error {
	return s.inTx(ctx, func(q *queries) error { return fn(q) })
}

func (s *sqlStore) inTx(ctx context.Context, fn func(q *queries) error) (err error) {
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
		if err != nil {
			_ = tx.Rollback()
			return
		}
		if err = tx.Commit(); err != nil {
			err = fmt.Errorf("store: commit: %w", err)
		}
	}()
	lite := s.engine == EngineSQLite
	c := conn{tx, lite}
	return fn(&queries{w: c, r: c, store: s, inTx: true})
}

// atomic runs fn in the current transaction, or in a new one.
func (q *queries) atomic(ctx context.Context, fn func(q *queries) error) error {
	if q.inTx {
		return fn(q)
	}
	return q.store.inTx(ctx, fn)
}

// mapErr turns engine errors into the package's errors.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "23505") {
		return fmt.Errorf("%w: %s", ErrConflict, pe.Detail)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %s", ErrConflict, se.Error())
		}
	}
	return err
}

// Timestamps are stored as unix microseconds (BIGINT), UTC.
func toUS(t time.Time) int64 { return t.UnixMicro() }

func fromUS(us int64) time.Time { return time.UnixMicro(us).UTC() }

// nullUS maps the zero time to NULL.
func nullUS(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMicro(), Valid: true}
}

func fromNullUS(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return fromUS(n.Int64)
}

// placeholders returns "$first, $first+1, ..." for n values.
func placeholders(first, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(first + i))
	}
	return b.String()
}
