package store

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
)

// openTestSQLite opens a fresh SQLite store, closed when the test ends.
func openTestSQLite(t testing.TB) *sqlStore {
	t.Helper()
	st, err := OpenSQLite(context.Background(), filepath.Join(t.TempDir(), SQLiteFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st.(*sqlStore)
}

// TestSQLiteSettings: WAL, foreign keys and busy timeout on every
// connection; one writer connection; readers cannot write.
func TestSQLiteSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTestSQLite(t)
	st := Store(s)
	check := func(who, pragma, want string, row interface{ Scan(...any) error }) {
		t.Helper()
		var got string
		if err := row.Scan(&got); err != nil {
			t.Fatalf("%s %s: %v", who, pragma, err)
		}
		if got != want {
			t.Errorf("%s: PRAGMA %s = %q, want %q", who, pragma, got, want)
		}
	}
	for who, db := range map[string]execer{"writer": s.writer, "reader": s.reader} {
		check(who, "journal_mode", "wal", db.QueryRowContext(ctx, "PRAGMA journal_mode"))
		check(who, "foreign_keys", "1", db.QueryRowContext(ctx, "PRAGMA foreign_keys"))
		check(who, "busy_timeout", "10000", db.QueryRowContext(ctx, "PRAGMA busy_timeout"))
	}
	check("writer", "wal_autocheckpoint", strconv.Itoa(walCheckpointPages), s.writer.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint"))
	if n := s.writer.Stats().MaxOpenConnections; n != 1 {
		t.Errorf("writer pool allows %d connections, want 1", n)
	}
	if _, err := s.reader.ExecContext(ctx, "INSERT INTO accounts (id, name, created_at) VALUES ('a', 'b', 0)"); err == nil {
		t.Error("the read pool accepted a write")
	}
	// Foreign keys are enforced: a key for a missing account is refused.
	if err := st.CreateAPIKey(ctx, APIKey{ID: "k", AccountID: "missing", Mode: ModeTest, Hash: "h"}); err == nil {
		t.Error("api key for a missing account accepted")
	}
}

// TestStatementsOfTransactionsArePreparedAfterFirstUse: a statement first
// run inside a transaction (where the single writer connection is taken)
// is prepared once that transaction ends, so later runs skip SQLite's
// parser.
func TestStatementsOfTransactionsArePreparedAfterFirstUse(t *testing.T) {
	t.Parallel()
	s := openTestSQLite(t)
	ctx := context.Background()
	const q = `UPDATE readiness SET checked_at = $1 WHERE id = 1`
	if s.writerStmts.lookup(q) != nil {
		t.Fatal("prepared before its first use")
	}
	for range 2 {
		err := s.InTx(ctx, func(tx Queries) error {
			_, err := tx.(*queries).w.exec(ctx, q, 1)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if s.writerStmts.lookup(q) == nil {
			t.Fatal("not prepared after the transaction that ran it")
		}
	}
}
