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

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// SQLiteFile is the database file name inside the data directory.
const SQLiteFile = "clearhouse.db"

// walCheckpointPages is the SQLite writer's wal_autocheckpoint (see OpenSQLite).
const walCheckpointPages = 300

// Open opens the database named by databaseURL, or with an empty URL the
// SQLite database in dataDir (created if missing), and brings its schema up
// to date.
func Open(ctx context.Context, dataDir, databaseURL string) (Store, error) {
	switch {
	case databaseURL == "":
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return nil, fmt.Errorf("store: data directory: %w", err)
		}
		return OpenSQLite(ctx, filepath.Join(dataDir, SQLiteFile))
	case strings.HasPrefix(databaseURL, "postgres://"), strings.HasPrefix(databaseURL, "postgresql://"):
		return OpenPostgres(ctx, databaseURL)
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
// The writer checkpoints the WAL every walCheckpointPages pages instead of
// SQLite's default 1000: a checkpoint runs inside a commit, and every check
// queued behind that commit waits for it. Copying 1000 pages (4 MiB) and
// syncing the file took long enough to double a check's p99 in bench-load;
// smaller, more frequent checkpoints cost the same in total but no single
// commit stalls for long. (A checkpointer on its own connection was tried:
// under constant writes the log then never starts over, and the RESTART
// checkpoint needed to force it stalls the writer longer.)
func OpenSQLite(ctx context.Context, path string) (Store, error) {
	base := "file:" + filepath.ToSlash(path) + "?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"
	writer, err := sql.Open("sqlite", base+"&_pragma=journal_mode(WAL)"+
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
	reader, err := sql.Open("sqlite", base+"&_pragma=query_only(1)")
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("store: open sqlite reader: %w", err)
	}
	reader.SetMaxOpenConns(4)
	reader.SetMaxIdleConns(4)
	s := newSQLStore(EngineSQLite, writer, reader)
	if err := s.warm(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// OpenPostgres opens a PostgreSQL pool through pgx's database/sql driver.
// A search_path query parameter selects the schema (tests use a fresh one).
func OpenPostgres(ctx context.Context, databaseURL string) (Store, error) {
	db, err := sql.Open("pgx", databaseURL)
	if err != nil {
		return nil, fmt.Errorf("store: open postgres %s: %w", redact(databaseURL), err)
	}
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(8)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: connect to %s: %w", redact(databaseURL), err)
	}
	if err := migrate(ctx, EnginePostgres, db); err != nil {
		db.Close()
		return nil, err
	}
	return newSQLStore(EnginePostgres, db, db), nil
}

// redact hides the password of a database URL for messages and logs.
func redact(databaseURL string) string {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
