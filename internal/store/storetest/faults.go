package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

// opened remembers how to reach the database of each store the openers made,
// so that FailWrites can change it from a second connection.
var opened sync.Map // store.Store → database

type database struct{ driver, dsn string }

func remember(t testing.TB, s store.Store, driver, dsn string) {
	opened.Store(s, database{driver, dsn})
	t.Cleanup(func() { opened.Delete(s) })
}

// FailWrites makes every later INSERT and UPDATE on the named tables fail
// inside the database itself, as on a full disk: on PostgreSQL with the
// server's disk_full error (SQLSTATE 53100), on SQLite with a trigger that
// aborts the statement. Reads keep working, which is exactly the state in
// which a service must stop answering success. s must come from SQLite,
// Postgres or PostgresVia.
func FailWrites(t testing.TB, s store.Store, tables ...string) {
	t.Helper()
	db, d := rawDB(t, s, "FailWrites")
	defer db.Close()
	ctx := context.Background()
	var stmts []string
	if d.driver == "pgx" {
		stmts = append(stmts, `CREATE OR REPLACE FUNCTION storetest_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`)
	}
	for _, table := range tables {
		if d.driver == "pgx" {
			stmts = append(stmts, fmt.Sprintf(`CREATE TRIGGER storetest_disk_full_%[1]s BEFORE INSERT OR UPDATE ON %[1]s
				FOR EACH ROW EXECUTE FUNCTION storetest_disk_full()`, table))
			continue
		}
		for _, op := range []string{"INSERT", "UPDATE"} {
			stmts = append(stmts, fmt.Sprintf(`CREATE TRIGGER storetest_disk_full_%[1]s_%[2]s BEFORE %[2]s ON %[1]s
				BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`, table, op))
		}
	}
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("storetest.FailWrites: %v", err)
		}
	}
}

// LockTable takes an exclusive lock on table from a second connection, as
// a long migration or a stuck transaction would, until the test ends or
// unlock is called. PostgreSQL stores only.
func LockTable(t testing.TB, s store.Store, table string) (unlock func()) {
	t.Helper()
	v, ok := opened.Load(s)
	if !ok || v.(database).driver != "pgx" {
		t.Fatal("storetest.LockTable: needs a PostgreSQL store opened by storetest")
	}
	db, err := sql.Open("pgx", v.(database).dsn)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err == nil {
		_, err = tx.Exec("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE")
	}
	if err != nil {
		db.Close()
		t.Fatalf("storetest.LockTable: %v", err)
	}
	var once sync.Once
	unlock = func() { once.Do(func() { tx.Rollback(); db.Close() }) }
	t.Cleanup(unlock)
	return unlock
}

// Raw opens s's database beside the store, for a test that checks rows no
// query of the store shows (what a delete left behind) or writes rows an
// older build wrote; closed when the test ends. Its statements use the
// engine's own placeholders (? on SQLite, $1 on PostgreSQL).
func Raw(t testing.TB, s store.Store) *sql.DB {
	t.Helper()
	v, ok := opened.Load(s)
	if !ok {
		t.Fatal("storetest.Raw: the store was not opened by storetest")
	}
	d := v.(database)
	db, err := sql.Open(d.driver, d.dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// execRaw runs q on s's database from a second connection, for rows the
// store's methods no longer write (usage of kinds other than checks, rows
// an older build wrote).
func execRaw(t testing.TB, s store.Store, q string, args ...any) {
	t.Helper()
	db, _ := rawDB(t, s, "execRaw")
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), q, args...); err != nil {
		t.Fatalf("%v: %s", err, q)
	}
}

// rawDB opens a second connection pool to the database of s, which an
// opener of this package made (the caller closes it).
func rawDB(t testing.TB, s store.Store, caller string) (*sql.DB, database) {
	t.Helper()
	v, ok := opened.Load(s)
	if !ok {
		t.Fatalf("storetest.%s: the store was not opened by storetest", caller)
	}
	d := v.(database)
	db, err := sql.Open(d.driver, d.dsn)
	if err != nil {
		t.Fatal(err)
	}
	return db, d
}
