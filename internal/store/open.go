package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib" // also registers the "pgx" driver
	_ "modernc.org/sqlite"           // registers the "sqlite" driver
)

// SQLiteFile is the database file name inside the data directory.
const SQLiteFile = "clearhouse.db"

// walCheckpointPages is the SQLite writer's wal_autocheckpoint (see
// checkpointer): past it the writer's COMMIT copies what the background
// checkpoints have not, so the log can start over.
const walCheckpointPages = 2000

// Open opens the database named by databaseURL, or with an empty URL the
// SQLite database in dataDir (created if missing), and brings its schema up
// to date.
// timeouts, if given, bound PostgreSQL's connections (DefaultPostgresTimeouts
// otherwise).
func Open(ctx context.Context, dataDir, databaseURL string, timeouts ...PostgresTimeouts) (Store, error) {
	switch {
	case databaseURL == "":
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return nil, fmt.Errorf("store: data directory: %w", err)
		}
		return OpenSQLite(ctx, filepath.Join(dataDir, SQLiteFile))
	case strings.HasPrefix(databaseURL, "postgres://"), strings.HasPrefix(databaseURL, "postgresql://"):
		t := DefaultPostgresTimeouts
		if len(timeouts) > 0 {
			t = timeouts[0]
		}
		return OpenPostgresWith(ctx, databaseURL, t)
	case strings.HasPrefix(databaseURL, "sqlite://"), strings.HasPrefix(databaseURL, "file:"):
		path := strings.TrimPrefix(strings.TrimPrefix(databaseURL, "sqlite://"), "file:")
		return OpenSQLite(ctx, path)
	}
	return nil, fmt.Errorf("store: unsupported database URL %q (want postgres://… or sqlite://PATH)", redact(databaseURL))
}

// OpenSQLite opens (creating if needed) the SQLite database at path: one
// writer connection whose transactions take the write lock at BEGIN
// (_txlock=immediate, so two writers never deadlock upgrading a read lock),
// plus a pool of read-only connections. WAL lets the readers run beside
// the writer.
//
// The WAL is checkpointed beside the writer, on a connection of its own
// (checkpointer); the writer's wal_autocheckpoint (walCheckpointPages) only
// lets the log start over under constant writes.
//
// synchronous=NORMAL with the store's own fsync of the WAL after each
// commit (walSync): a committed transaction survives a power cut before any
// caller hears of it, as with FULL, but the fsync runs after SQLite's write
// lock is released, so the next transaction runs during it, and commits
// that return while one fsync runs share the next.
//
// temp_store=MEMORY: a group's SAVEPOINTs keep the pages they change in a
// statement journal, which spilled to a temporary file (an open, writes and
// a close per transaction) once it passed 64 KiB.
func OpenSQLite(ctx context.Context, path string) (Store, error) {
	base := "file:" + filepath.ToSlash(path) + "?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)"
	writer, err := sql.Open("sqlite", base+"&_pragma=synchronous(NORMAL)&_pragma=temp_store(MEMORY)&_pragma=journal_mode(WAL)"+
		"&_pragma=wal_autocheckpoint("+strconv.Itoa(walCheckpointPages)+")&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite: %w", err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	writer.SetConnMaxIdleTime(0)
	if err := migrate(ctx, EngineSQLite, writer); err != nil {
		writer.Close()
		return nil, err
	}
	wal := newWALSync(path)
	if err := wal.fsync(); err != nil { // the migrations' commits
		writer.Close()
		return nil, err
	}
	reader, err := sql.Open("sqlite", base+"&_pragma=query_only(1)")
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("store: open sqlite reader: %w", err)
	}
	reader.SetMaxOpenConns(4)
	reader.SetMaxIdleConns(4)
	ckpt, err := sql.Open("sqlite", base)
	if err != nil {
		writer.Close()
		reader.Close()
		return nil, fmt.Errorf("store: open sqlite checkpointer: %w", err)
	}
	ckpt.SetMaxOpenConns(1)
	s := newSQLStore(EngineSQLite, writer, reader, wal)
	s.ckpt = newCheckpointer(ckpt)
	if s.scenarios, err = openScenariosSignal(path); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.warm(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// OpenPostgres opens a PostgreSQL pool through pgx's database/sql driver
// with DefaultPostgresTimeouts. A search_path query parameter selects the
// schema (tests use a fresh one).
func OpenPostgres(ctx context.Context, databaseURL string) (Store, error) {
	return OpenPostgresWith(ctx, databaseURL, DefaultPostgresTimeouts)
}

// PostgresTimeouts bound every wait on PostgreSQL, so that a database that
// is gone, stalled or locked turns into an error (503 for a request) within
// seconds instead of a hang. Zero leaves a bound off.
type PostgresTimeouts struct {
	// Connect bounds opening one connection, TCP and startup handshake: a
	// server that accepts TCP and never answers fails the start quickly.
	// A connect_timeout in the URL wins.
	Connect time.Duration
	// Acquire bounds the wait for a connection from the pool, plus the
	// statement it runs on a lost network (where the server's own
	// statement_timeout cannot fire).
	Acquire time.Duration
	// Statement is the server's statement_timeout for every statement
	// (lock waits included), except migrations. A statement_timeout in
	// the URL wins.
	Statement time.Duration
}

// DefaultPostgresTimeouts: far above what any query of ours takes, far below
// what a caller waits for.
var DefaultPostgresTimeouts = PostgresTimeouts{Connect: 5 * time.Second, Acquire: 5 * time.Second, Statement: 10 * time.Second}

// OpenPostgresWith is OpenPostgres with the given timeouts.
func OpenPostgresWith(ctx context.Context, databaseURL string, t PostgresTimeouts) (Store, error) {
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("store: postgres URL %s: %w", redact(databaseURL), err)
	}
	if u, err := url.Parse(databaseURL); err == nil && u.Query().Get("connect_timeout") == "" && t.Connect > 0 {
		cfg.ConnectTimeout = t.Connect
	}
	// Migrations run without a statement timeout (an index on a large
	// table may take minutes), on a pool of their own that is closed after.
	mcfg := cfg.Copy()
	mcfg.RuntimeParams["statement_timeout"] = "0"
	migrator := stdlib.OpenDB(*mcfg)
	defer migrator.Close()
	if err := migrator.PingContext(ctx); err != nil {
		return nil, fmt.Errorf("store: connect to %s: %w", redact(databaseURL), err)
	}
	if err := migrate(ctx, EnginePostgres, migrator); err != nil {
		return nil, err
	}
	// A commit is durable when PostgreSQL says so: synchronous_commit=off
	// on the server would acknowledge commits (control-number blocks
	// among them) that a crash of the server takes back, so our sessions
	// turn it on unless the URL chooses.
	if _, set := cfg.RuntimeParams["synchronous_commit"]; !set {
		var sc string
		if err := migrator.QueryRowContext(ctx, "SHOW synchronous_commit").Scan(&sc); err == nil && sc == "off" {
			cfg.RuntimeParams["synchronous_commit"] = "on"
		}
	}
	if _, set := cfg.RuntimeParams["statement_timeout"]; !set && t.Statement > 0 {
		cfg.RuntimeParams["statement_timeout"] = strconv.FormatInt(t.Statement.Milliseconds(), 10)
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(8)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connect to %s: %w", redact(databaseURL), err)
	}
	s := newSQLStore(EnginePostgres, db, db, nil)
	if t.Acquire > 0 {
		s.bound(t.Acquire + t.Statement)
	}
	return s, nil
}

// redact hides the password of a database URL for messages and logs.
func redact(databaseURL string) string {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
