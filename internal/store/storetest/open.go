// Package storetest is the conformance suite every store engine must pass
// (the idea of River's riverdrivertest), plus helpers that open a fresh,
// empty store of each engine for tests in other packages.
package storetest

import (
	"context"
	"database/sql"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/testenv"
)

// Opener returns a fresh, empty store that is closed when the test ends.
type Opener func(t testing.TB) store.Store

// Engine names an Opener.
type Engine struct {
	Name string
	Open Opener
}

// Engines lists every engine: SQLite always, PostgreSQL when reachable
// (its Opener skips, or fails under CI, when it is not).
func Engines() []Engine {
	return []Engine{{store.EngineSQLite, SQLite}, {store.EnginePostgres, Postgres}}
}

// ForEachEngine runs fn as a subtest per engine.
func ForEachEngine(t *testing.T, fn func(t *testing.T, open Opener)) {
	for _, e := range Engines() {
		t.Run(e.Name, func(t *testing.T) {
			if e.Name == store.EnginePostgres {
				testenv.PostgresURL(t) // skip (or fail in CI) once, not per subtest
			}
			fn(t, e.Open)
		})
	}
}

// SQLite opens a new SQLite store in a temporary directory.
func SQLite(t testing.TB) store.Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), store.SQLiteFile)
	s, err := store.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	remember(t, s, "sqlite", "file:"+filepath.ToSlash(path)+"?_pragma=busy_timeout(10000)")
	t.Cleanup(func() { s.Close() })
	return s
}

// Postgres opens a store in a new schema of the test PostgreSQL database
// (testenv.PostgresURL) and drops the schema when the test ends, so runs
// in parallel or left over from a crash never see each other's rows.
func Postgres(t testing.TB) store.Store {
	t.Helper()
	return PostgresVia(t, "")
}

// PostgresVia is Postgres reached at hostPort (a testenv.Proxy in front of
// the test server, to cut or stall the connection) instead of the server's
// own address ("" is the server itself), with extra URL parameters given as
// name, value pairs.
func PostgresVia(t testing.TB, hostPort string, params ...string) store.Store {
	t.Helper()
	direct := PostgresSchemaURL(t, params...)
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	if hostPort != "" {
		u.Host = hostPort
	}
	s, err := store.OpenPostgres(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	remember(t, s, "pgx", direct)
	t.Cleanup(func() { s.Close() })
	return s
}

// PostgresSchemaURL creates a new schema in the test PostgreSQL database
// (testenv.PostgresURL), dropped when the test ends, and returns the URL
// that works in it (search_path), with extra URL parameters given as name,
// value pairs. For a test that runs a server process on PostgreSQL.
func PostgresSchemaURL(t testing.TB, params ...string) string {
	t.Helper()
	base := testenv.PostgresURL(t)
	ctx := context.Background()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	schema := "test_" + strings.ToLower(store.NewID())
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	for i := 0; i+1 < len(params); i += 2 {
		q.Set(params[i], params[i+1]) // connection parameters, e.g. statement_timeout
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// Seed creates an account and an API key record of the given mode, for
// tests that need rows owned by someone. The key's hash matches no real key.
func Seed(t testing.TB, s store.Store, mode string) (store.Account, store.APIKey) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Microsecond)
	a := store.Account{ID: store.NewID(), Name: "acct-" + store.NewID(), CreatedAt: now}
	if err := s.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	k := store.APIKey{ID: store.NewID(), AccountID: a.ID, Mode: mode, Name: "seed", Hash: strings.Repeat("0", 64), CreatedAt: now}
	if err := s.CreateAPIKey(ctx, k); err != nil {
		t.Fatal(err)
	}
	return a, k
}
